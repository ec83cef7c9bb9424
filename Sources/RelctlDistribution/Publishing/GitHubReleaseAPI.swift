import Foundation
import RelctlArtifacts
import RelctlBasics

/// The REST calls for releases and their assets (docs.github.com: "REST API endpoints for
/// releases" and "… for release assets") and for pull requests (`requests`), all sent through
/// the one forge client (`ForgeAPIClient`): this type holds GitHub's URLs, headers, JSON shapes
/// and error hints only.
package struct GitHubReleaseAPI: Sendable {
    package static let defaultBaseURL = "https://api.github.com"
    package static let apiVersion = "2022-11-28"

    package var baseURL: URL
    package var repository: GitHubRepository
    private var token: String
    package var client: ForgeAPIClient

    /// `timeout`: each request's idle timeout; `deadline`: its overall deadline (seconds).
    package init(
        baseURL: URL, repository: GitHubRepository, token: String, http: any HTTPClient, timeout: TimeInterval = 60,
        deadline: TimeInterval = HTTPRequest.defaultDeadline
    ) {
        self.baseURL = baseURL
        self.repository = repository
        self.token = token
        // The token, for the API's own origin only (redirects and links elsewhere go without it).
        client = ForgeAPIClient(
            forge: "GitHub", http: http, credential: HTTPCredential(authorization: "Bearer \(token)", for: baseURL),
            secret: token, headers: ["Accept": "application/vnd.github+json", "X-GitHub-Api-Version": Self.apiVersion],
            timeout: timeout, deadline: deadline, paging: .link, errors: Self.errors)
    }

    /// GitHub's error document: `message`, `documentation_url` and, for 422, `errors[]`.
    package static let errors = ForgeErrorShape(
        documentationKey: "documentation_url",
        hints: [
            401: "check GITHUB_TOKEN / GH_TOKEN",
            403: "the token needs `contents: write` on the repository",
            404: "no such repository, or the token cannot see it",
        ])

    /// `GITHUB_API_URL` when set (GitHub Enterprise Server: `https://HOST/api/v3`), else api.github.com.
    package static func baseURL(environment: [String: String]) throws -> URL {
        let raw = environment["GITHUB_API_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
        guard let url = ForgeAPIClient.baseURL(raw) else { throw PublishError.badAPIURL(value: raw) }
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
        let url = repositoryURL.appendingPathComponent("git/ref/tags/\(tag)")
        return try await client.find(url, as: Ref.self, shown: "GET git/ref/tags/\(tag)")?.object.sha
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
        return try await client.call(
            "POST", repositoryURL.appendingPathComponent("releases"),
            json: Fields(tag_name: tag, name: title, body: body, draft: true, prerelease: prerelease), expect: [201],
            as: GitHubRelease.self, shown: "POST releases")
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
        return try await client.call(
            "PATCH", repositoryURL.appendingPathComponent("releases/\(releaseID)"), json: fields, expect: [200],
            as: GitHubRelease.self, shown: "PATCH release")
    }

    // MARK: assets

    package func listAssets(releaseID: Int) async throws -> [GitHubAsset] {
        try await listAll(repositoryURL.appendingPathComponent("releases/\(releaseID)/assets"))
    }

    package func deleteAsset(id: Int) async throws {
        // 404: already gone (an earlier attempt whose answer was lost), which is what we wanted.
        let url = repositoryURL.appendingPathComponent("releases/assets/\(id)")
        _ = try await client.send("DELETE", url, expect: [204, 404])
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
        return try client.decode(GitHubAsset.self, response, request: "upload \(asset.name)")
    }

    // MARK: plumbing

    /// Every page of the listing at `url` (its query kept), 100 items a page, `Link` pagination.
    package func listAll<T: Decodable>(_ url: URL) async throws -> [T] {
        let first =
            URLComponents(url: url, resolvingAgainstBaseURL: false).flatMap { components in
                var components = components
                components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "per_page", value: "100")]
                return components.url
            } ?? url
        let listing = "GET " + url.path.replacingOccurrences(of: repositoryURL.path, with: "").drop { $0 == "/" }
        return try await client.listAll(listing) { _ in first }
    }
}

/// GitHub's own fields of a release (docs.github.com, "Get a release"), beside `ForgeRelease`'s.
package struct GitHubReleaseFields: Decodable, Sendable, Equatable {
    package var name: String?
    package var htmlURL: String
    /// A URI template (`…/assets{?name,label}`), usually on another host than the API.
    package var uploadURL: String

    private enum CodingKeys: String, CodingKey {
        case name
        case htmlURL = "html_url"
        case uploadURL = "upload_url"
    }
}

/// A release as GitHub's REST API returns it (the fields relctl reads).
package typealias GitHubRelease = ForgeRelease<GitHubReleaseFields>

/// GitHub's own fields of a release asset: its upload state and the digest GitHub computed.
package struct GitHubAssetFields: Decodable, Sendable, Equatable {
    /// `uploaded` when complete; anything else (`starter`, `open`) is an upload that never finished.
    package var state: String
    /// `sha256:HEX`, computed by GitHub from the bytes it stored; absent on servers that predate it.
    package var digest: String?
}

/// A release asset as GitHub's REST API returns it.
package typealias GitHubAsset = ForgeAsset<GitHubAssetFields>

extension ForgeAsset where Fields == GitHubAssetFields {
    package var isUploaded: Bool { fields.state == "uploaded" }

    /// The lowercase hex SHA256 when the server reports one.
    package var sha256: String? {
        guard let digest = fields.digest, digest.lowercased().hasPrefix("sha256:") else { return nil }
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
extension GitHubReleaseAPI {
    package var requests: ForgeRequests<PullRequestDocument> {
        let api = self
        return .pulls(client: client, repository: repository, at: repositoryURL, changed: [200]) { head in
            var components = URLComponents(
                url: api.repositoryURL.appendingPathComponent("pulls"), resolvingAgainstBaseURL: false)
            components?.queryItems = [
                URLQueryItem(name: "state", value: "open"),
                URLQueryItem(name: "head", value: "\(api.repository.owner):\(head)"),
            ]
            guard let url = components?.url else { return [] }
            return try await api.listAll(url)
        }
    }
}
