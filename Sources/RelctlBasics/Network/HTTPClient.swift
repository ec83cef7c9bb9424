import Foundation

/// The one network side effect: send a request, get a response. A failure to get any response
/// (refused, reset, timed out) throws `NetworkError.transport`; every HTTP status is a response.
public protocol HTTPClient: Sendable {
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// One HTTP request, independent of the transport, so publishers and registries can share a client.
public struct HTTPRequest: Sendable {
    /// What goes after the headers: nothing, bytes in memory, or a file streamed from disk.
    package enum Body: Sendable {
        case none
        case data(Data)
        /// Streamed by the transport in chunks; the file is never read into memory whole.
        case file(URL, size: Int64)
    }

    package var method: String
    package var url: URL
    package var headers: [String: String]
    /// The `Authorization` to send, bound to one origin: the transport adds it only to requests
    /// (and redirect hops) that go to exactly that origin.
    package var credential: HTTPCredential?
    package var body: Body
    /// Seconds without progress before the request fails (an idle timeout, so large uploads on a
    /// slow link still finish).
    package var timeout: TimeInterval
    /// Seconds the whole request may take, answer included, however steadily a server trickles
    /// bytes (the idle `timeout` never fires then). A file body adds a second per 64 KiB, so a
    /// large upload on a slow but honest link still finishes. `RELCTL_HTTP_DEADLINE` sets it.
    package var deadline: TimeInterval = HTTPRequest.defaultDeadline
    /// The most answer bytes accepted: a JSON document or manifest by default; a caller that
    /// downloads a blob or an archive into `responseFile` sets its expected size or a larger cap.
    package var responseLimit: Int64 = HTTPRequest.documentLimit
    /// Where the answer's body is streamed instead of memory (the response's `body` is then empty).
    /// Removed again when the request fails.
    package var responseFile: URL?
    /// Called with the body bytes sent so far, for file bodies (progress on a terminal).
    package var progress: (@Sendable (Int64) -> Void)?

    package init(
        method: String, url: URL, headers: [String: String] = [:], body: Body = .none, timeout: TimeInterval = 60
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    package static let defaultDeadline: TimeInterval = 600

    /// 16 MiB: GitHub's largest JSON pages and registry manifests are far below it (the OCI
    /// distribution spec lets registries refuse manifests over 4 MiB).
    package static let documentLimit: Int64 = 16 << 20

    /// The deadline with the allowance for a file body.
    package var overallDeadline: TimeInterval {
        if case .file(_, let size) = body { return deadline + Double(max(0, size)) / 65536 }
        return deadline
    }

    /// Set to false for a request the method says is idempotent but the API is not (GitLab's
    /// generic package PUT adds another copy of the file each time): the caller retries it after
    /// looking at what the server holds.
    package var retriedBlindly: Bool = true

    /// Sending it twice leaves the server as sending it once: such requests may be retried after
    /// a failure whose outcome is unknown (a reset connection, a 502).
    package var isIdempotent: Bool {
        retriedBlindly && ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"].contains(method)
    }

    /// `GET https://host/path` for messages, never with the query's credentials.
    package var summary: String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.user = nil
        components?.password = nil
        return "\(method) \(components?.string ?? url.path)"
    }
}

/// A response with its headers looked up case-insensitively, as HTTP requires.
public struct HTTPResponse: Sendable {
    package var status: Int
    package var body: Data
    private var fields: [String: String]

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.body = body
        var fields: [String: String] = [:]
        for (name, value) in headers { fields[name.lowercased()] = value }
        self.fields = fields
    }

    package func header(_ name: String) -> String? { fields[name.lowercased()] }

    package var text: String { String(decoding: body, as: UTF8.self) }
}
