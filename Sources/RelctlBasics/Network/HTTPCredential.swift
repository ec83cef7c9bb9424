import Foundation

/// An `Authorization` value and the one origin it may be sent to. The transport adds it to a
/// request (and to each redirect hop) only when that request goes to exactly this origin; a
/// redirect or an upload `Location` pointing anywhere else goes without it.
package struct HTTPCredential: Sendable {
    package var authorization: String
    package var origin: HTTPOrigin
    /// The header that carries it: `Authorization`, or a forge's own (GitLab's `PRIVATE-TOKEN`,
    /// `JOB-TOKEN`), bound to the origin all the same.
    package var header = "Authorization"

    /// Bound to the origin of `url`; nil when the URL has no http(s) origin.
    package init?(authorization: String, for url: URL) {
        guard let origin = HTTPOrigin(url) else { return nil }
        self.authorization = authorization
        self.origin = origin
    }

    package init(authorization: String, origin: HTTPOrigin) {
        self.authorization = authorization
        self.origin = origin
    }

    /// A secret sent in a header other than `Authorization`, bound to the origin of `url`.
    package init?(header: String, value: String, for url: URL) {
        guard let origin = HTTPOrigin(url) else { return nil }
        self.authorization = value
        self.origin = origin
        self.header = header
    }
}

/// Scheme, host and port (RFC 6454): the unit a credential is bound to. `https://a` and
/// `http://a`, or `a:443` and `a:8443`, are different origins, so a token given to one never
/// reaches the other.
public struct HTTPOrigin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int

    /// Nil for a URL that is not http(s) or names no host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String { "\(scheme)://\(host):\(port)" }

    /// This machine (`localhost`, 127.0.0.0/8, `::1`): the one place plain HTTP is accepted, for
    /// stand-in servers in tests.
    public var isLoopback: Bool {
        if host == "localhost" || host == "::1" || host == "[::1]" { return true }
        let parts = host.split(separator: ".")
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }
}
