import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics
@testable import RelctlDistribution

/// The one forge client (`ForgeAPIClient`) that GitHub's, GitLab's and Gitea's calls go through,
/// on the strict stand-ins of the three forges: a listing read page by page as each forge pages
/// it, its page and byte bounds, and error answers read into messages the same way everywhere.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct ForgeAPIClientTests {
    enum Forge: String, CaseIterable, Sendable {
        case github, gitlab, gitea
    }

    /// A forge's stand-in holding open pull requests, with the client and the listing of every
    /// open one, as that forge pages it.
    struct Served: Sendable {
        var client: ForgeAPIClient
        /// Page `n` of the open pull requests.
        var page: @Sendable (Int) -> URL
        /// How many pages of the listing one read takes (100 a page; Gitea's 50).
        var pages: @Sendable (_ items: Int) -> Int
        /// The GETs of the listing the stand-in received.
        var listed: @Sendable () async throws -> Int
        var stop: @Sendable () -> Void
    }

    static func serve(_ forge: Forge, open: Int, token: String? = nil) async throws -> Served {
        let http = URLSessionHTTPClient()
        switch forge {
        case .github:
            let server = try GitHubStandIn()
            _ = try await server.pulls(#"{"unrelated": \#(open)}"#)
            let api = GitHubReleaseAPI(
                baseURL: try #require(URL(string: server.apiURL)),
                repository: try #require(GitHubRepository("acme/velostream")), token: token ?? GitHubStandIn.token,
                http: http)
            let first = try #require(URL(string: api.repositoryURL.absoluteString + "/pulls?state=open&per_page=100"))
            return Served(
                client: api.client, page: { _ in first }, pages: { ($0 + 99) / 100 },
                listed: { try await server.log().filter { $0.method == "GET" && $0.path.hasSuffix("/pulls") }.count },
                stop: { server.stop() })
        case .gitlab, .gitea:
            let server = try ForgeStandIn(forge == .gitlab ? .gitlab : .gitea)
            _ = try await server.pulls(#"{"unrelated": \#(open)}"#)
            let base = try #require(URL(string: server.apiURL))
            let collection = forge == .gitlab ? "/merge_requests" : "/pulls"
            let listed: @Sendable () async throws -> Int = {
                try await server.log().filter { $0.method == "GET" && $0.path.hasSuffix(collection) }.count
            }
            guard forge == .gitea else {
                let api = GitLabAPI(
                    baseURL: base, project: try #require(GitLabProject(ForgeStandIn.gitlabProject)),
                    token: token ?? ForgeStandIn.gitlabToken, tokenHeader: "PRIVATE-TOKEN", http: http)
                let query = ["state": "opened", "per_page": "100"]
                return Served(
                    client: api.client,
                    page: { api.url(collection, query: query.merging(["page": String($0)]) { $1 }) },
                    pages: { ($0 + 99) / 100 }, listed: listed, stop: { server.stop() })
            }
            let api = GiteaReleaseAPI(
                baseURL: base, repository: try #require(GitHubRepository(ForgeStandIn.giteaRepository)),
                token: token ?? ForgeStandIn.giteaToken, http: http)
            let first = api.repositoryURL.absoluteString + "/pulls?state=open&limit=50&page="
            return Served(
                client: api.client, page: { URL(string: first + String($0)) ?? api.repositoryURL },
                pages: { ($0 + 49) / 50 }, listed: listed, stop: { server.stop() })
        }
    }

    /// An `api` error's parts, compared whole.
    struct Answer: Equatable {
        var request: String, status: Int, message: String, documentation: String?, details: [String]
    }

    static func answer(_ error: PublishError?) -> Answer? {
        guard case let .api(request, status, message, documentation, details)? = error else { return nil }
        return Answer(
            request: request, status: status, message: message, documentation: documentation, details: details)
    }

    static func limit(_ error: PublishError?) -> (forge: String, listing: String, limit: PublishError.ListingLimit)? {
        guard case let .listingTooLong(forge, listing, limit)? = error else { return nil }
        return (forge, listing, limit)
    }

    /// Just the number a pull request is addressed by: enough to tell the items apart.
    struct Numbered: Decodable, Hashable {
        var number: Int?
        var iid: Int?
    }

    @Test("a listing is read to its last page and no further, as each forge pages it", arguments: Forge.allCases)
    func everyPageAndNoMore(forge: Forge) async throws {
        let served = try await Self.serve(forge, open: 120)
        defer { served.stop() }
        let items: [Numbered] = try await served.client.listAll("GET pulls", page: served.page)
        #expect(items.count == 120 && Set(items).count == 120, "\(items.count) items")
        #expect(try await served.listed() == served.pages(120))
    }

    /// The two bounds of a listing, each set low: one page, or 4 KiB (a page of 50 or 100 pull
    /// requests is far more, so the first answer is cut off).
    enum Bound: String, CaseIterable, Sendable {
        case pages, bytes
    }

    @Test(
        "a listing past its page or byte bound is an error after exactly the pages the bound allows",
        arguments: Forge.allCases, Bound.allCases)
    func bounds(forge: Forge, bound: Bound) async throws {
        let served = try await Self.serve(forge, open: 120)
        defer { served.stop() }
        let pageLimit = bound == .pages ? 1 : ForgeAPIClient.listingPageLimit
        let byteLimit = bound == .bytes ? 4096 : ForgeAPIClient.listingByteLimit
        let error = await #expect(throws: PublishError.self) {
            let _: [Numbered] = try await served.client.listAll(
                "GET pulls", pageLimit: pageLimit, byteLimit: byteLimit, page: served.page)
        }
        let stopped = try #require(Self.limit(error), "\(String(describing: error))")
        #expect(stopped.forge == served.client.forge && stopped.listing == "GET pulls")
        #expect(stopped.limit == (bound == .pages ? .pages(1) : .bytes(4096)))
        let message = error?.message ?? ""
        let says = bound == .pages ? "still names a next page after 1 pages" : "passed 4.00 KiB over its pages"
        #expect(message.contains(says), "\(message)")
        #expect(try await served.listed() == 1)
    }

    @Test(
        "an error answer carries the forge's message and its hint for the status, never the token",
        arguments: Forge.allCases)
    func errorAnswers(forge: Forge) async throws {
        let wrong = "wrong-token-0123456789"
        let served = try await Self.serve(forge, open: 1, token: wrong)
        defer { served.stop() }
        let error = await #expect(throws: PublishError.self) {
            let _: [Numbered] = try await served.client.listAll("GET pulls", page: served.page)
        }
        let answer = try #require(Self.answer(error), "\(String(describing: error))")
        #expect(answer.request.hasPrefix("GET ") && [401, 404].contains(answer.status), "\(answer)")
        let hint = try #require(served.client.errors.hints[answer.status])
        #expect(answer.message.hasSuffix(" (\(hint))") && answer.message.count > hint.count + 3, "\(answer)")
        #expect(error.map { !$0.message.contains(wrong) } == true)
    }

    /// The three forges' error documents, decoded by the one reader.
    @Test("each forge's error document becomes a message, details and a documentation link")
    func errorDocuments() throws {
        func client(_ errors: ForgeErrorShape) -> ForgeAPIClient {
            ForgeAPIClient(
                forge: "test", http: URLSessionHTTPClient(), credential: nil, secret: "s3cret", headers: [:],
                timeout: 1, deadline: 1, paging: .link, errors: errors)
        }
        func answer(_ status: Int, _ body: String) -> HTTPResponse {
            HTTPResponse(status: status, headers: [:], body: Data(body.utf8))
        }
        let github = client(GitHubReleaseAPI.errors).apiError(
            answer(
                422,
                #"{"message":"Validation Failed","errors":[{"resource":"Release","code":"already_exists","field":"tag_name"}],"documentation_url":"https://docs.github.com/rest"}"#
            ), request: "POST releases")
        #expect(
            Self.answer(github)
                == Answer(
                    request: "POST releases", status: 422, message: "Validation Failed",
                    documentation: "https://docs.github.com/rest", details: ["Release tag_name already_exists"]))
        let gitea = client(GiteaReleaseAPI.errors).apiError(
            answer(409, #"{"message":"exists","url":"https://gitea.com/api/swagger","errors":["tag v1"]}"#),
            request: "POST releases")
        #expect(
            Self.answer(gitea)
                == Answer(
                    request: "POST releases", status: 409, message: "exists (a release for this tag already exists)",
                    documentation: "https://gitea.com/api/swagger", details: ["tag v1"]))
        let gitlab = client(GitLabAPI.errors(variable: "GITLAB_TOKEN")).apiError(
            answer(400, #"{"message":{"tag_name":["is missing","is bad"],"name":["too long"]},"url":"x"}"#),
            request: "POST releases")
        #expect(
            Self.answer(gitlab)
                == Answer(
                    request: "POST releases", status: 400, message: "rejected", documentation: nil,
                    details: ["name too long", "tag_name is missing, is bad"]))
        // Not a JSON document: the start of the body, or "no message" for none.
        let plain = client(GitLabAPI.errors(variable: "CI_JOB_TOKEN")).apiError(
            answer(401, "<html>bad gateway</html>"), request: "GET tags")
        #expect(plain.message.contains("HTTP 401: <html>bad gateway</html> (check CI_JOB_TOKEN)"), "\(plain.message)")
        let empty = client(GiteaReleaseAPI.errors).apiError(answer(500, ""), request: "GET releases")
        #expect(empty.message.contains("HTTP 500: no message"), "\(empty.message)")
    }
}
