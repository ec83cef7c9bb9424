import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics
@testable import RelctlDistribution
@testable import RelctlModel

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

/// What the three forges' publishers share: one release and one asset model read from either
/// forge's JSON, one token rule, and one Gitea repository lookup for `publish` and `release-pr`.
extension ForgeAPIClientTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    static let githubAsset =
        #"[{"id":1,"name":"a.tar.gz","size":5,"state":"starter","digest":null},"#
        + #"{"id":2,"name":"b.zip","size":3,"state":"uploaded","digest":"sha256:ABC"}]"#
    static let giteaAttachment =
        #"[{"id":9,"name":"a.tar.gz","size":5,"browser_download_url":"https://codeberg.org/attachments/9"}]"#

    @Test func oneReleaseModelReadsBothForgesAndKeepsWhatEachRequires() throws {
        let github = try Self.decode(
            GitHubRelease.self,
            #"{"id":7,"tag_name":"v1.0.0","name":null,"draft":true,"prerelease":false,"#
                + #""html_url":"https://github.com/acme/velostream/releases/tag/v1.0.0","#
                + #""upload_url":"https://uploads.github.com/repos/acme/velostream/releases/7/assets{?name,label}"}"#)
        #expect(github.id == 7 && github.tagName == "v1.0.0" && github.draft && !github.prerelease)
        #expect(github.htmlURL.hasSuffix("/tag/v1.0.0") && github.uploadURL.hasPrefix("https://uploads.github.com/"))
        // Gitea may leave out html_url; GitHub may not leave out upload_url.
        let gitea = try Self.decode(GiteaRelease.self, #"{"id":3,"tag_name":"v1.0.0","draft":false,"prerelease":true}"#)
        #expect(gitea.id == 3 && gitea.tagName == "v1.0.0" && !gitea.draft && gitea.prerelease && gitea.htmlURL == nil)
        #expect(throws: DecodingError.self) {
            try Self.decode(GitHubRelease.self, #"{"id":3,"tag_name":"v1.0.0","draft":false,"prerelease":true}"#)
        }
        // Both are the one release model the draft choice works on.
        #expect(ReleaseChoice.choose([gitea], tag: "v1.0.0", console: .silent)?.id == 3)
        #expect(ReleaseChoice.choose([github], tag: "v1.0.0", console: .silent)?.id == 7)
    }

    @Test func oneAssetModelReadsBothForgesAndKeepsWhatEachRequires() throws {
        let assets = try Self.decode([GitHubAsset].self, Self.githubAsset)
        #expect(assets.map(\.name) == ["a.tar.gz", "b.zip"] && assets.map(\.size) == [5, 3])
        #expect(assets.map(\.isUploaded) == [false, true] && assets.map(\.sha256) == [nil, "abc"])
        let attachments = try Self.decode([GiteaAttachment].self, Self.giteaAttachment)
        #expect(attachments.map(\.id) == [9] && attachments.first?.size == 5)
        #expect(attachments.first?.downloadURL == "https://codeberg.org/attachments/9")
        // Each forge's own fields stay required: a GitHub asset needs its state, a Gitea attachment its URL.
        #expect(throws: DecodingError.self) { try Self.decode([GitHubAsset].self, Self.giteaAttachment) }
        #expect(throws: DecodingError.self) { try Self.decode([GiteaAttachment].self, Self.githubAsset) }
    }

    @Test func everyForgeReadsItsTokenByOneRule() throws {
        // The first variable set and non-empty wins; GitLab's decides the header it goes in.
        let job = try GitLabPublisher.token(["GITLAB_TOKEN": "", "CI_JOB_TOKEN": "job"])
        #expect(
            job.value == "job" && job.variable == "CI_JOB_TOKEN" && GitLabAPI.tokenHeader(job.variable) == "JOB-TOKEN")
        let personal = try GitLabPublisher.token(["GITLAB_TOKEN": "mine", "CI_JOB_TOKEN": "job"])
        #expect(personal.value == "mine" && GitLabAPI.tokenHeader(personal.variable) == "PRIVATE-TOKEN")
        #expect(try GitHubPublisher.token(["GITHUB_TOKEN": "a", "GH_TOKEN": "b"]).variable == "GITHUB_TOKEN")
        #expect(try GitHubPublisher.token(["GH_TOKEN": "b"]).value == "b")
        let none = #expect(throws: PublishError.self) { try GiteaPublisher.token(["GITHUB_TOKEN": "a"]) }
        #expect(
            none?.message.contains("no Gitea/Forgejo token: set GITEA_TOKEN") == true, "\(String(describing: none))")
    }

    @Test func publishAndReleasePRFindAGiteaRepositoryAlike() throws {
        let remote = "https://codeberg.org/other/tool.git"
        #expect(
            try GiteaPublisher.repository(configured: "acme/velostream", remoteURL: remote).description
                == "acme/velostream")
        #expect(try GiteaPublisher.repository(configured: nil, remoteURL: remote).description == "other/tool")
        let bad = #expect(throws: PublishError.self) {
            try GiteaPublisher.repository(configured: "acme", remoteURL: remote)
        }
        #expect(bad?.message.contains("relctl.toml [publish] gitea") == true, "\(String(describing: bad))")
        // No setting and no remote: release-pr now gives publish's hint, the remote included
        // (before, release-pr's hint left the remote out).
        let context = Context(
            workingDirectory: FileManager.default.temporaryDirectory,
            environment: ["GITEA_TOKEN": "t", "GITEA_API_URL": "https://codeberg.org/api/v1"])
        let missing = #expect(throws: PublishError.self) {
            try ReleaseRequestForge(
                id: GiteaPublisher.id, settings: PublishSettings(), remoteURL: nil, context: context,
                http: URLSessionHTTPClient())
        }
        #expect(
            missing?.message.contains(
                "cannot tell which Gitea/Forgejo project to publish to: set `gitea = \"OWNER/REPO\"` in relctl.toml's [publish] section (or give the project a remote); nothing was sent"
            ) == true, "\(String(describing: missing))")
    }
}
