import Foundation
import RelctlArtifacts
import RelctlBasics

/// The REST calls for releases and their assets (docs.github.com: "REST API endpoints for
/// releases" and "… for release assets"), with GitHub's headers on every request.
package struct GitHubReleaseAPI: Sendable {
    package static let defaultBaseURL = "https://api.github.com"
    package static let apiVersion = "2022-11-28"

    package var baseURL: URL
    package var repository: GitHubRepository
    private var token: String
    package var client: ForgeAPIClient
    /// Per-request idle timeout, in seconds.
    package var timeout: TimeInterval {
        get { client.timeout }
        set { client.timeout = newValue }
    }
    /// Per-request overall deadline, in seconds (`RELCTL_HTTP_DEADLINE`).
    package var deadline: TimeInterval {
        get { client.deadline }
        set { client.deadline = newValue }
    }

    package init(
        baseURL: URL, repository: GitHubRepository, token: String, http: any HTTPClient, timeout: TimeInterval = 60
    ) {
        self.baseURL = baseURL
        self.repository = repository
        self.token = token
        // The token, for the API's own origin only (redirects and links elsewhere go without it).
        client = ForgeAPIClient(
            forge: "GitHub", http: http, credential: HTTPCredential(authorization: "Bearer \(token)", for: baseURL),
            secret: token,
            headers: [
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": Self.apiVersion,
                "User-Agent": "relctl/\(RelctlVersion.version)",
            ], timeout: timeout, apiError: Self.apiError)
    }

    /// `GITHUB_API_URL` when set (GitHub Enterprise Server: `https://HOST/api/v3`), else api.github.com.
    package static func baseURL(environment: [String: String]) throws -> URL {
        let raw = environment["GITHUB_API_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
        var trimmed = raw
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(),
            scheme == "https" || scheme == "http", url.host != nil
        else {
            throw PublishError.badAPIURL(value: raw)
        }
        return url
    }

    package var repositoryURL: URL {
        baseURL.appendingPathComponent("repos").appendingPathComponent(repository.owner).appendingPathComponent(
            repository.name)
    }

    // MARK: tags

    /// The object the tag ref points at on GitHub (`GET /repos/{owner}/{repo}/git/ref/tags/{tag}`,
    /// an exact match): the tag object of an annotated tag, the commit of a lightweight one; nil
    /// when the tag is not there. Publishing a release whose tag is missing would make GitHub
    /// create the tag on the default branch's head: never what a release of a tested commit wants.
    package func tagObject(_ tag: String) async throws -> String? {
        struct Ref: Decodable {
            struct Object: Decodable { var sha: String }
            var object: Object
        }
        let response = try await send(
            "GET", repositoryURL.appendingPathComponent("git/ref/tags/\(tag)"), expect: [200, 404])
        guard response.status == 200 else { return nil }
        return try decode(Ref.self, response, request: "GET git/ref/tags/\(tag)").object.sha
    }

    // MARK: releases

    /// Every release, drafts included (the token must be able to push to see drafts), all pages.
    package func listReleases() async throws -> [GitHubRelease] {
        try await listAll(repositoryURL.appendingPathComponent("releases"))
    }

    /// A draft for `tag`: invisible to the public, and creating it creates no tag.
    package func createDraft(tag: String, title: String, body: String, prerelease: Bool) async throws -> GitHubRelease {
        struct Fields: Encodable {
            var tag_name: String, name: String, body: String, draft: Bool, prerelease: Bool
        }
        let response = try await send(
            "POST", repositoryURL.appendingPathComponent("releases"),
            json: Fields(tag_name: tag, name: title, body: body, draft: true, prerelease: prerelease), expect: [201])
        return try decode(GitHubRelease.self, response, request: "POST releases")
    }

    /// Publishes a draft (or updates a release) in one request.
    package func publish(
        releaseID: Int, title: String, body: String, prerelease: Bool, makeLatest: Bool
    ) async throws -> GitHubRelease {
        struct Fields: Encodable {
            var draft: Bool, name: String, body: String, prerelease: Bool, make_latest: String
        }
        let fields = Fields(
            draft: false, name: title, body: body, prerelease: prerelease, make_latest: makeLatest ? "true" : "false")
        let response = try await send(
            "PATCH", repositoryURL.appendingPathComponent("releases/\(releaseID)"), json: fields, expect: [200])
        return try decode(GitHubRelease.self, response, request: "PATCH release")
    }

    // MARK: assets

    package func listAssets(releaseID: Int) async throws -> [GitHubAsset] {
        try await listAll(repositoryURL.appendingPathComponent("releases/\(releaseID)/assets"))
    }

    package func deleteAsset(id: Int) async throws {
        // 404: already gone (an earlier attempt whose answer was lost), which is what we wanted.
        _ = try await send("DELETE", repositoryURL.appendingPathComponent("releases/assets/\(id)"), expect: [204, 404])
    }

    /// Uploads one file, streamed from disk, to the release's expanded `upload_url`.
    package func upload(
        _ asset: Artifact, to release: GitHubRelease, progress: (@Sendable (Int64) -> Void)? = nil
    ) async throws -> GitHubAsset {
        let target = URITemplate(release.uploadURL).expand(["name": asset.name])
        guard let url = URL(string: target) else {
            throw PublishError.api(
                request: "upload \(asset.name)", status: 0,
                message: "the release's upload_url `\(release.uploadURL)` is not a URL template", documentationURL: nil,
                details: [])
        }
        var request = client.request("POST", url, body: .file(asset.fileURL, size: asset.size))
        // The upload host is the one the API named (uploads.github.com beside api.github.com): the
        // token goes there too, but never over plain HTTP when the API itself is HTTPS.
        request.credential = nil
        if let origin = HTTPOrigin(url), origin.scheme == "https" || HTTPOrigin(baseURL)?.scheme == "http" {
            request.credential = HTTPCredential(authorization: "Bearer \(token)", origin: origin)
        }
        request.headers["Content-Type"] = asset.contentType
        request.progress = progress
        let response = try await client.send(request, expect: [201])
        return try decode(GitHubAsset.self, response, request: "upload \(asset.name)")
    }

    // MARK: plumbing

    package func listAll<T: Decodable>(_ url: URL) async throws -> [T] {
        let first =
            URLComponents(url: url, resolvingAgainstBaseURL: false).flatMap { components in
                var components = components
                components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "per_page", value: "100")]
                return components.url
            } ?? url
        let listing = "GET " + url.path.replacingOccurrences(of: repositoryURL.path, with: "").drop { $0 == "/" }
        return try await client.list(listing, first: first) { response, _, _ in
            // Follow links only on the API's own origin (scheme, host and port): the token goes
            // with every page, and a link to plain HTTP would send it in clear.
            guard let next = LinkHeader.url(response.header("Link"), rel: "next"),
                HTTPOrigin(next) == HTTPOrigin(baseURL)
            else { return nil }
            return next
        }
    }

    private func send(
        _ method: String, _ url: URL, json: (any Encodable)? = nil, expect: Set<Int>
    ) async throws -> HTTPResponse {
        try await client.send(method, url, json: json, expect: expect)
    }

    /// GitHub's error document: `message`, `documentation_url` and, for 422, `errors[]`.
    package static func apiError(_ response: HTTPResponse, request: String) -> PublishError {
        struct Body: Decodable {
            struct Item: Decodable { var resource: String?, code: String?, field: String?, message: String? }
            var message: String?
            var documentation_url: String?
            var errors: [Item]?
        }
        let body = try? JSONDecoder().decode(Body.self, from: response.body)
        var message = body?.message ?? (response.text.isEmpty ? "no message" : String(response.text.prefix(300)))
        switch response.status {
        case 401: message += " (check GITHUB_TOKEN / GH_TOKEN)"
        case 403: message += " (the token needs `contents: write` on the repository)"
        case 404: message += " (no such repository, or the token cannot see it)"
        default: break
        }
        let details = (body?.errors ?? []).map { item in
            [item.resource, item.field, item.code, item.message].compactMap { $0 }.joined(separator: " ")
        }
        return .api(
            request: request, status: response.status, message: message, documentationURL: body?.documentation_url,
            details: details)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ response: HTTPResponse, request: String) throws -> T {
        try client.decode(type, response, request: request)
    }
}

/// A release as the REST API returns it (the fields relctl reads).
package struct GitHubRelease: Decodable, Sendable, Equatable {
    package var id: Int
    package var tagName: String
    package var name: String?
    package var draft: Bool
    package var prerelease: Bool
    package var htmlURL: String
    /// A URI template (`…/assets{?name,label}`), usually on another host than the API.
    package var uploadURL: String

    package enum CodingKeys: String, CodingKey {
        case id, name, draft, prerelease
        case tagName = "tag_name"
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }
}

/// A release asset as the REST API returns it.
package struct GitHubAsset: Decodable, Sendable, Equatable {
    package var id: Int
    package var name: String
    /// `uploaded` when complete; anything else (`starter`, `open`) is an upload that never finished.
    package var state: String
    package var size: Int64
    /// `sha256:HEX`, computed by GitHub from the bytes it stored; absent on servers that predate it.
    package var digest: String?

    package var isUploaded: Bool { state == "uploaded" }

    /// The lowercase hex SHA256 when the server reports one.
    package var sha256: String? {
        guard let digest, digest.lowercased().hasPrefix("sha256:") else { return nil }
        return String(digest.dropFirst("sha256:".count)).lowercased()
    }

    /// Whether this asset holds exactly the local file's bytes. Without a digest (older GitHub
    /// Enterprise Server), only the size can be compared.
    package func matches(_ local: Artifact) -> Bool {
        if let sha256 { return sha256 == local.sha256 }
        return size == local.size
    }
}

/// docs.github.com, "REST API endpoints for pull requests": `GET /repos/{owner}/{repo}/pulls`
/// filtered with `head=OWNER:BRANCH` and `state=open` (Link pagination), `POST …/pulls`,
/// `PATCH …/pulls/{number}` (title, body, `state: closed`).
extension GitHubReleaseAPI: ReleaseRequestAPI {
    private struct Pull: Decodable {
        struct Repository: Decodable { var id: Int }
        /// `repo` is null when the head's fork was deleted.
        struct Ref: Decodable { var ref: String, repo: Repository? }
        var number: Int
        var title: String
        var body: String?
        var html_url: String
        var head: Ref
        var base: Ref
        var request: ForgeRequest {
            ForgeRequest(
                number: number, title: title, body: body ?? "", head: head.ref, base: base.ref, url: html_url,
                sourceRepository: head.repo?.id, targetRepository: base.repo?.id)
        }
    }

    package var noun: String { "pull request" }
    package var place: String { repository.description }

    package func openRequests(head: String) async throws -> [ForgeRequest] {
        var components = URLComponents(
            url: repositoryURL.appendingPathComponent("pulls"), resolvingAgainstBaseURL: false)
        components?.queryItems = [
            URLQueryItem(name: "state", value: "open"),
            URLQueryItem(name: "head", value: "\(repository.owner):\(head)"),
        ]
        guard let url = components?.url else { return [] }
        let pulls: [Pull] = try await listAll(url)
        // The filter is the server's; a server that ignored it must not make us adopt another branch's request.
        return pulls.map(\.request).filter { $0.head == head }
    }

    package func create(head: String, base: String, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var title: String, head: String, base: String, body: String }
        let response = try await client.send(
            "POST", repositoryURL.appendingPathComponent("pulls"),
            json: Fields(title: title, head: head, base: base, body: body), expect: [201])
        return try client.decode(Pull.self, response, request: "POST pulls").request
    }

    package func update(_ number: Int, title: String, body: String) async throws -> ForgeRequest {
        struct Fields: Encodable { var title: String, body: String }
        let response = try await client.send(
            "PATCH", repositoryURL.appendingPathComponent("pulls/\(number)"), json: Fields(title: title, body: body),
            expect: [200])
        return try client.decode(Pull.self, response, request: "PATCH pulls/\(number)").request
    }

    package func close(_ number: Int) async throws {
        struct Fields: Encodable { var state: String }
        _ = try await client.send(
            "PATCH", repositoryURL.appendingPathComponent("pulls/\(number)"), json: Fields(state: "closed"),
            expect: [200])
    }
}
