import Foundation
import RelctlBasics

/// How a forge's listings name their next page.
package enum ForgePaging: Sendable, Equatable {
    /// GitHub: the URL in the `Link` header's `rel="next"`, on the API's own origin only.
    case link
    /// Gitea/Forgejo: the next page number, while the `Link` header names a next page and the page
    /// was not empty.
    case counted
    /// GitLab: the page number a header names (`X-Next-Page`), empty on the last page.
    case header(String)
}

extension ForgeAPIClient {
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

    /// Every page of a listing as the forge pages it (`paging`): `page(n)` is the URL of page n
    /// (page 1 first; the forge puts its page size and number in it). `listing` names it in messages;
    /// the bounds are `list`'s.
    package func listAll<T: Decodable>(
        _ listing: String, pageLimit: Int = listingPageLimit, byteLimit: Int64 = listingByteLimit,
        page: (Int) -> URL
    ) async throws -> [T] {
        let first = page(1)
        var number = 1
        return try await list(listing, first: first, pageLimit: pageLimit, byteLimit: byteLimit) {
            (response: HTTPResponse, chunk: [T], _: URL) -> URL? in
            switch paging {
            case .link:
                // Links are followed on the API's own origin only (scheme, host and port): the token
                // goes with every page, and a link to plain HTTP would send it in clear.
                guard let next = LinkHeader.url(response.header("Link"), rel: "next"),
                    HTTPOrigin(next) == HTTPOrigin(first)
                else { return nil }
                return next
            case .counted:
                guard !chunk.isEmpty, LinkHeader.url(response.header("Link"), rel: "next") != nil else { return nil }
                number += 1
                return page(number)
            case .header(let name):
                guard let next = response.header(name), let value = Int(next) else { return nil }
                return page(value)
            }
        }
    }
}
