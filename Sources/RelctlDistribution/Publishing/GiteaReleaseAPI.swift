import Crypto
import Foundation
import RelctlArtifacts
import RelctlBasics

/// The REST calls of Gitea's and Forgejo's API v1 for releases and their attachments, as their
/// swagger documents them (https://gitea.com/api/swagger, https://codeberg.org/api/swagger):
/// `GET/POST /repos/{owner}/{repo}/releases`, `PATCH …/releases/{id}`, `GET/POST
/// …/releases/{id}/assets` (upload: multipart field `attachment`, query `name`), `DELETE
/// …/releases/{id}/assets/{attachment_id}`, `GET /repos/{owner}/{repo}/tags/{tag}`, and the pull
/// requests (`requests`). The token goes as `Authorization: token …` (docs.gitea.com, "API
/// Usage"), to the API's origin only. Every call goes through `ForgeAPIClient`: this type holds
/// Gitea's URLs, headers, JSON shapes and error hints only.
package struct GiteaReleaseAPI: Sendable {
    package var baseURL: URL
    package var repository: GitHubRepository
    package var client: ForgeAPIClient
    /// Gitea's default `MAX_RESPONSE_ITEMS` is 50: a larger `limit` is cut to it anyway.
    package static let pageSize = 50

    /// `timeout`: each request's idle timeout; `deadline`: its overall deadline (seconds).
    package init(
        baseURL: URL, repository: GitHubRepository, token: String, http: any HTTPClient, timeout: TimeInterval = 60,
        deadline: TimeInterval = HTTPRequest.defaultDeadline
    ) {
        self.baseURL = baseURL
        self.repository = repository
        client = ForgeAPIClient(
            forge: "Gitea/Forgejo", http: http,
            credential: HTTPCredential(authorization: "token \(token)", for: baseURL), secret: token,
            headers: ["Accept": "application/json"], timeout: timeout, deadline: deadline, paging: .counted,
            errors: Self.errors)
    }

    /// Gitea's error documents (swagger `APIError`: `message`, `url`; `APIValidationError` alike).
    package static let errors = ForgeErrorShape(
        documentationKey: "url",
        hints: [
            401: "check GITEA_TOKEN",
            403: "the token needs the write:repository scope and write access to the repository",
            404: "no such repository or release, or the token cannot see it",
            409: "a release for this tag already exists",
        ])

    /// `GITEA_API_URL`, else `GITEA_SERVER_URL` + `/api/v1`; there is no default server.
    package static func baseURL(environment: [String: String]) throws -> URL {
        let example = "https://codeberg.org/api/v1"
        var variable = "GITEA_API_URL"
        var raw = environment[variable] ?? ""
        if raw.isEmpty, let server = environment["GITEA_SERVER_URL"], !server.isEmpty {
            variable = "GITEA_SERVER_URL"
            var trimmed = server
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            raw = trimmed + "/api/v1"
        }
        guard !raw.isEmpty else {
            throw PublishError.noForgeURL(
                forge: "Gitea/Forgejo", variables: ["GITEA_API_URL", "GITEA_SERVER_URL"], example: example)
        }
        guard let url = ForgeAPIClient.baseURL(raw) else {
            throw PublishError.badForgeURL(variable: variable, value: environment[variable] ?? raw, example: example)
        }
        return url
    }

    package var repositoryURL: URL {
        baseURL.appendingPathComponent("repos").appendingPathComponent(repository.owner).appendingPathComponent(
            repository.name)
    }

    /// The tag's object on the server (`Tag.id`: the tag object of an annotated tag, the commit of
    /// a lightweight one) and its commit; nil when the tag is not there.
    package func tag(_ tag: String) async throws -> (object: String, commit: String?)? {
        struct Tag: Decodable {
            struct Commit: Decodable { var sha: String? }
            var id: String
            var commit: Commit?
        }
        let url = repositoryURL.appendingPathComponent("tags").appendingPathComponent(tag)
        guard let found = try await client.find(url, as: Tag.self, shown: "GET tags/\(tag)") else { return nil }
        return (found.id, found.commit?.sha)
    }

    /// Every release, drafts included (listed to tokens that can write the repository), every page.
    package func listReleases() async throws -> [GiteaRelease] {
        try await listAll("releases", query: [])
    }

    /// Every page of `path` (under the repository) with `query`: `page` and `limit` added.
    /// Gitea sends a Link header with rel="next" while pages remain; an empty page ends it too.
    package func listAll<T: Decodable>(_ path: String, query: [URLQueryItem]) async throws -> [T] {
        let base = repositoryURL.appendingPathComponent(path)
        func page(_ number: Int) -> URL {
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
            components?.queryItems =
                query + [
                    URLQueryItem(name: "page", value: String(number)),
                    URLQueryItem(name: "limit", value: String(Self.pageSize)),
                ]
            return components?.url ?? base
        }
        return try await client.listAll("GET \(path)", page: page)
    }

    package func createDraft(tag: String, title: String, body: String, prerelease: Bool) async throws -> GiteaRelease {
        struct Fields: Encodable { var tag_name: String, name: String, body: String, draft: Bool, prerelease: Bool }
        return try await client.call(
            "POST", repositoryURL.appendingPathComponent("releases"),
            json: Fields(tag_name: tag, name: title, body: body, draft: true, prerelease: prerelease), expect: [201],
            as: GiteaRelease.self, shown: "POST releases")
    }

    /// Makes the draft public, with its final title and notes, in one request.
    package func publish(releaseID: Int, title: String, body: String, prerelease: Bool) async throws -> GiteaRelease {
        struct Fields: Encodable { var draft: Bool, name: String, body: String, prerelease: Bool }
        return try await client.call(
            "PATCH", repositoryURL.appendingPathComponent("releases/\(releaseID)"),
            json: Fields(draft: false, name: title, body: body, prerelease: prerelease), expect: [200],
            as: GiteaRelease.self, shown: "PATCH release")
    }

    package func listAssets(releaseID: Int) async throws -> [GiteaAttachment] {
        // One page: Gitea answers with every attachment of a release.
        try await client.call(
            "GET", repositoryURL.appendingPathComponent("releases/\(releaseID)/assets"), expect: [200],
            as: [GiteaAttachment].self, shown: "GET assets")
    }

    package func deleteAsset(releaseID: Int, id: Int) async throws {
        // 404: already gone (an earlier attempt whose answer was lost).
        _ = try await client.send(
            "DELETE", repositoryURL.appendingPathComponent("releases/\(releaseID)/assets/\(id)"), expect: [204, 404])
    }

    /// Uploads one file as the multipart field `attachment`, streamed from a scratch copy.
    package func upload(
        _ asset: Artifact, releaseID: Int, progress: (@Sendable (Int64) -> Void)? = nil
    ) async throws
        -> GiteaAttachment
    {
        var components = URLComponents(
            url: repositoryURL.appendingPathComponent("releases/\(releaseID)/assets"), resolvingAgainstBaseURL: false)
        components?.queryItems = [URLQueryItem(name: "name", value: asset.name)]
        guard let url = components?.url else {
            throw PublishError.badAssetName(sums: "SHA256SUMS", name: asset.name, line: nil)
        }
        let body = try MultipartUpload(field: "attachment", asset: asset)
        defer { body.remove() }
        var request = client.request("POST", url, body: .file(body.url, size: body.size))
        request.headers["Content-Type"] = body.contentType
        request.progress = progress
        let response = try await client.send(request, expect: [201])
        return try client.decode(GiteaAttachment.self, response, request: "upload \(asset.name)")
    }

    /// The SHA256 of an attachment's bytes as the server serves them. The token goes along only
    /// when the download URL is on the API's own origin (a private repository's attachments).
    package func sha256(of attachment: GiteaAttachment) async throws -> String {
        guard let url = URL(string: attachment.downloadURL) else {
            throw PublishError.api(
                request: "download \(attachment.name)", status: 0,
                message: "the attachment's browser_download_url `\(attachment.downloadURL)` is not a URL",
                documentationURL: nil, details: [])
        }
        // Streamed to a scratch file under the attachment's own size (the body limit's rule: only
        // JSON documents are read into memory), hashed from disk, then removed.
        let file = Temporaries.scratchURL("gitea-attachment")
        defer { try? FileSystem.remove(file) }
        var request = client.request("GET", url)
        request.responseFile = file
        request.responseLimit = max(0, attachment.size)
        _ = try await client.send(request, expect: [200])
        return try FileHasher.sha256(of: file)
    }
}

/// Gitea's own field of a release (swagger model `Release`): its page, which may be absent.
package struct GiteaReleaseFields: Decodable, Sendable, Equatable {
    package var htmlURL: String?

    private enum CodingKeys: String, CodingKey { case htmlURL = "html_url" }
}

/// A release as Gitea's and Forgejo's API v1 return it, the fields relctl reads.
package typealias GiteaRelease = ForgeRelease<GiteaReleaseFields>

/// Gitea's own field of a release attachment (swagger model `Attachment`). Gitea stores no
/// digest of it, so its bytes are checked by downloading `browser_download_url` and hashing them.
package struct GiteaAttachmentFields: Decodable, Sendable, Equatable {
    package var downloadURL: String

    private enum CodingKeys: String, CodingKey { case downloadURL = "browser_download_url" }
}

/// A release attachment as Gitea's and Forgejo's API v1 return it.
package typealias GiteaAttachment = ForgeAsset<GiteaAttachmentFields>

/// Gitea's and Forgejo's swagger: `GET /repos/{owner}/{repo}/pulls?state=open` (`page`/`limit`,
/// a Link header; there is no head filter, so every page is read and filtered here), `POST
/// …/pulls`, `PATCH …/pulls/{index}` (title, body, `state: closed`; answered with 201).
extension GiteaReleaseAPI {
    package var requests: ForgeRequests<PullRequestDocument> {
        let api = self
        return .pulls(client: client, repository: repository, at: repositoryURL, changed: [200, 201]) { _ in
            try await api.listAll("pulls", query: [URLQueryItem(name: "state", value: "open")])
        }
    }
}
