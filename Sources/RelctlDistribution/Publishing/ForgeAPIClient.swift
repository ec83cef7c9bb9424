import Foundation
import RelctlBasics

/// What every forge's REST client shares: its headers on each request, the token bound to the
/// API's origin (in whichever header the forge reads it), the idle timeout and overall deadline,
/// JSON bodies, the statuses a call expects, and error bodies read with the token masked.
package struct ForgeAPIClient: Sendable {
    /// The forge's name in messages: GitHub, GitLab, Gitea/Forgejo.
    package var forge: String
    package var http: any HTTPClient
    package var credential: HTTPCredential?
    /// Masked in every message built from an answer.
    package var secret: String
    package var headers: [String: String]
    package var timeout: TimeInterval
    package var deadline: TimeInterval = HTTPRequest.defaultDeadline
    /// The forge's error document read into an error, from a response already masked.
    package var apiError: @Sendable (_ response: HTTPResponse, _ request: String) -> PublishError

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
            throw apiError(response.maskingSecrets([secret]), request.summary)
        }
        return response
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

    // MARK: listings

    /// The most pages one listing follows: 100,000 items at GitHub's and GitLab's 100 per page.
    package static let listingPageLimit = 1000
    /// The most bytes one listing reads, all its pages together: what a listing may cost in memory.
    package static let listingByteLimit: Int64 = 64 << 20

    /// Every page of a listing, from `first` on while `next` names another page (nil ends it). A
    /// server that keeps naming pages, or whose pages add up past the byte budget, is an error
    /// naming the forge, the listing and the limit: a list cut short silently would make a
    /// release look incomplete, or an asset absent, that is not.
    package func list<T: Decodable>(
        _ listing: String, first: URL, pageLimit: Int = listingPageLimit, byteLimit: Int64 = listingByteLimit,
        next: (_ response: HTTPResponse, _ page: [T], _ url: URL) -> URL?
    ) async throws -> [T] {
        var items: [T] = []
        var url: URL? = first
        var pages = 0
        var bytes: Int64 = 0
        while let page = url {
            guard pages < pageLimit else {
                throw PublishError.listingTooLong(forge: forge, listing: listing, limit: .pages(pageLimit))
            }
            pages += 1
            var request = request("GET", page)
            // A page may use what is left of the budget and no more: memory never grows past it.
            let left = byteLimit - bytes
            request.responseLimit = min(HTTPRequest.documentLimit, left)
            let response: HTTPResponse
            do { response = try await send(request, expect: [200]) } catch NetworkError.responseTooLarge
                where left < HTTPRequest.documentLimit
            {
                throw PublishError.listingTooLong(forge: forge, listing: listing, limit: .bytes(byteLimit))
            }
            bytes += Int64(response.body.count)
            let chunk = try decode([T].self, response, request: "GET \(listing)")
            items += chunk
            url = next(response, chunk, page)
        }
        return items
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
