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
