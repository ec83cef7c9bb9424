import Foundation
import RelctlBasics

/// What every forge's REST client shares: its headers on each request, the token bound to the
/// API's origin (in whichever header the forge reads it), the idle timeout and overall deadline,
/// JSON bodies, the statuses a call expects, and error bodies read with the token masked.
struct ForgeAPIClient: Sendable {
    var http: any HTTPClient
    var credential: HTTPCredential?
    /// Masked in every message built from an answer.
    var secret: String
    var headers: [String: String]
    var timeout: TimeInterval
    var deadline: TimeInterval = HTTPRequest.defaultDeadline
    /// The forge's error document read into an error, from a response already masked.
    var apiError: @Sendable (_ response: HTTPResponse, _ request: String) -> PublishError

    /// A request with the forge's headers, the credential, the timeout and the deadline.
    func request(_ method: String, _ url: URL, body: HTTPRequest.Body = .none) -> HTTPRequest {
        var request = HTTPRequest(method: method, url: url, headers: headers, body: body, timeout: timeout)
        request.credential = credential
        request.deadline = deadline
        return request
    }

    func send(
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

    func send(_ request: HTTPRequest, expect: Set<Int>) async throws -> HTTPResponse {
        let response = try await http.send(request)
        guard expect.contains(response.status) else {
            throw apiError(response.maskingSecrets([secret]), request.summary)
        }
        return response
    }

    func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, request: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: response.body) } catch {
            throw PublishError.api(
                request: request, status: response.status,
                message: "unexpected answer: \(String(SecretMask.mask(response.text, hiding: [secret]).prefix(200)))",
                documentationURL: nil, details: [])
        }
    }

    /// `raw` as an API base: http(s) with a host, without trailing slashes; nil otherwise.
    static func baseURL(_ raw: String) -> URL? {
        var trimmed = raw
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else { return nil }
        return url
    }
}
