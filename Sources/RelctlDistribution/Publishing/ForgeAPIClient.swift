import Foundation
import RelctlArtifacts
import RelctlBasics
import Synchronization

/// The one HTTP client of the three forges (GitHub, GitLab, Gitea/Forgejo): their release, asset,
/// tag and pull-request calls all go through it. It holds what they share: the forge's headers on
/// each request, the token bound to the API's origin (in whichever header the forge reads it), the
/// idle timeout and overall deadline, JSON bodies, the statuses a call expects, listings paged
/// within one page and byte bound, and error bodies read once (`ForgeErrorShape`) with the token
/// masked. Retries and rate limits are the `RetryingHTTPClient` it is given. A forge keeps only
/// its URLs, its headers and its JSON shapes.
package struct ForgeAPIClient: Sendable {
    /// The forge's name in messages: GitHub, GitLab, Gitea/Forgejo.
    package var forge: String
    package var http: any HTTPClient
    package var credential: HTTPCredential?
    /// Masked in every message built from an answer.
    package var secret: String
    package var headers: [String: String]
    package var timeout: TimeInterval
    package var deadline: TimeInterval
    /// How the forge's listings name their next page.
    package var paging: ForgePaging
    /// What the forge's error documents hold beyond the common fields, and its hints per status.
    package var errors: ForgeErrorShape

    package init(
        forge: String, http: any HTTPClient, credential: HTTPCredential?, secret: String, headers: [String: String],
        timeout: TimeInterval, deadline: TimeInterval, paging: ForgePaging, errors: ForgeErrorShape
    ) {
        self.forge = forge
        self.http = http
        self.credential = credential
        self.secret = secret
        // Every forge is told who calls it.
        self.headers = headers.merging(["User-Agent": "relctl/\(RelctlVersion.version)"]) { old, _ in old }
        self.timeout = timeout
        self.deadline = deadline
        self.paging = paging
        self.errors = errors
    }

    /// A request with the forge's headers, the credential, the timeout and the deadline.
    package func request(_ method: String, _ url: URL, body: HTTPRequest.Body = .none) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: timeout)
        request.credential = credential
        request.deadline = deadline
        return request
    }

    package func send(
        _ method: String, _ url: URL, json: (any Encodable)? = nil, expect: Set<Int>
    ) async throws
        -> HTTPResponse
    {
        var request = request(method, url)
        if let json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            request.body = .data(try encoder.encode(json))
            request.headers["Content-Type"] = "application/json"
        }
        return try await send(request, expect: expect)
    }

    package func send(_ request: HTTPRequest, expect: Set<Int>) async throws -> HTTPResponse {
        let response = try await http.send(request)
        guard expect.contains(response.status) else {
            // Whatever the status (a 2xx the call did not expect too): the body becomes a message.
            throw apiError(response.maskingSecrets([secret]), request: request.summary)
        }
        return response
    }

    /// One call whose answer is a JSON document: sent, its status checked, its body decoded.
    /// `shown` names the call in messages (`POST releases`).
    package func call<T: Decodable>(
        _ method: String, _ url: URL, json: (any Encodable)? = nil, expect: Set<Int>, as type: T.Type,
        shown: String
    ) async throws -> T {
        try decode(type, try await send(method, url, json: json, expect: expect), request: shown)
    }

    /// A GET of something that may be absent: the document, or nil on 404.
    package func find<T: Decodable>(_ url: URL, as type: T.Type, shown: String) async throws -> T? {
        let response = try await send("GET", url, expect: [200, 404])
        guard response.status == 200 else { return nil }
        return try decode(type, response, request: shown)
    }

    package func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, request: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: response.body) } catch {
            // Masked before it is cut, so no part of a token survives at the cut.
            let start = String(decoding: response.body.prefix(SecretMask.messageWindow), as: UTF8.self)
            throw PublishError.api(
                request: request, status: response.status,
                message: "unexpected answer: \(String(SecretMask.mask(start, hiding: [secret]).prefix(200)))",
                documentationURL: nil, details: [])
        }
    }

    /// `raw` as an API base: http(s) with a host, without trailing slashes; nil otherwise.
    package static func baseURL(_ raw: String) -> URL? {
        var trimmed = raw
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { return nil }
        return url
    }
}

/// RFC 8288 `Link` header, as GitHub paginates with it: `<url>; rel="next", <url>; rel="last"`.
package enum LinkHeader {
    /// The URL with the given relation, or nil.
    package static func url(_ header: String?, rel: String) -> URL? {
        guard let header else { return nil }
        for link in header.split(separator: ",") {
            let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">") else { continue }
            let relations = parts.dropFirst().compactMap { part -> [String]? in
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "rel" else { return nil }
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).split(separator: " ").map(
                    String.init)
            }.flatMap { $0 }
            if relations.contains(rel) { return URL(string: String(target.dropFirst().dropLast())) }
        }
        return nil
    }
}

/// The part of RFC 6570 that GitHub's hypermedia URLs use: simple `{var}` and form-style
/// `{?a,b}` / `{&a,b}` expressions. Undefined variables are left out, as the RFC says.
package struct URITemplate: Sendable, Equatable {
    package var template: String

    package init(_ template: String) { self.template = template }

    package func expand(_ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { result += rest[open...]; return result }
            var expression = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            let op = expression.first.flatMap { "?&".contains($0) ? $0 : nil }
            if op != nil { expression = expression.dropFirst() }
            let names = expression.split(separator: ",").map(String.init)
            let defined = names.compactMap { name in values[name].map { (name, $0) } }
            guard !defined.isEmpty else { continue }
            switch op {
            case "?"?, "&"?:
                result += String(op ?? "?") + defined.map { "\($0.0)=\(Self.encode($0.1))" }.joined(separator: "&")
            default:
                result += defined.map { Self.encode($0.1) }.joined(separator: ",")
            }
        }
        return result + rest
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters.
    package static func encode(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let scalar = Character(Unicode.Scalar(byte))
            if byte < 0x80, scalar.isLetter || scalar.isNumber || "-._~".contains(scalar) {
                out.append(scalar)
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }
}

/// A `multipart/form-data` body (RFC 7578) holding one file field, written to a scratch file so
/// the transport streams it from disk like any other file body: a 1 GiB asset never sits in
/// memory. Removed by `remove()`, or by the interrupt cleanup if relctl is stopped meanwhile.
package struct MultipartUpload {
    package let url: URL
    package let size: Int64
    package let boundary: String

    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// `field` carries `asset`'s bytes under its name, with its media type.
    package init(field: String, asset: Artifact) throws {
        // Random, so no file can contain it by accident (RFC 2046 5.1.1: at most 70 characters).
        boundary = "relctl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let quotedName = asset.name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\"")
        let head = Data(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(quotedName)\"\r\n"
                + "Content-Type: \(asset.contentType)\r\n\r\n").utf8)
        let tail = Data("\r\n--\(boundary)--\r\n".utf8)
        url = Temporaries.scratchURL("upload")
        let descriptor = CleanupRegistry.shared.create(url, mode: 0o600)
        guard descriptor >= 0 else { throw FileSystemError(path: url.path, action: "cannot create", errno: errno) }
        var written: Int64 = 0
        do {
            defer { close(descriptor) }
            try AtomicFile.writeAll(head, to: descriptor, reportedAs: url)
            let input = try FileHandle(forReadingFrom: asset.fileURL)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: FileHasher.bufferSize), !chunk.isEmpty {
                try AtomicFile.writeAll(chunk, to: descriptor, reportedAs: url)
                written += Int64(chunk.count)
            }
            try AtomicFile.writeAll(tail, to: descriptor, reportedAs: url)
        } catch {
            Temporaries.removeScratchFile(url)
            throw error
        }
        size = Int64(head.count) + written + Int64(tail.count)
    }

    package func remove() { Temporaries.removeScratchFile(url) }
}

/// One asset's upload on a terminal: a line redrawn at most five times a second with the
/// share sent and the rate. Prints nothing when stderr is not a terminal (logs get the
/// "uploading"/"uploaded" lines instead).
package final class UploadProgress: Sendable {
    private let console: Console
    private let name: String
    private let total: Int64
    private let start = Date()
    private let lastDraw = Mutex<Date>(.distantPast)

    package init(console: Console, name: String, total: Int64) {
        self.console = console
        self.name = name
        self.total = total
    }

    package var isShown: Bool { console.isInteractive && console.verbosity >= .normal }

    package func update(_ sent: Int64) {
        guard isShown else { return }
        let now = Date()
        let due = lastDraw.withLock { last -> Bool in
            guard now.timeIntervalSince(last) >= 0.2 else { return false }
            last = now
            return true
        }
        guard due else { return }
        let percent = total > 0 ? Int(Double(sent) * 100 / Double(total)) : 100
        let elapsed = max(0.001, now.timeIntervalSince(start))
        let rate = ByteCount.format(Int64(Double(sent) / elapsed))
        console.stderr("\r\u{1B}[K  \(name)  \(percent)% of \(ByteCount.format(total)), \(rate)/s")
    }

    package func finish() {
        guard isShown else { return }
        console.stderr("\r\u{1B}[K")
    }
}
