import Foundation
import RelctlArtifacts
import RelctlBasics

/// The REST v4 calls relctl makes on GitLab (docs.gitlab.com/api): "Generic packages API" (`PUT
/// /projects/:id/packages/generic/:package_name/:package_version/:file_name`), "Packages API"
/// (`GET /projects/:id/packages`, `GET /projects/:id/packages/:package_id/package_files`),
/// "Releases API" (`GET/POST /projects/:id/releases[/:tag_name]`), "Release links API" (`GET/POST
/// /projects/:id/releases/:tag_name/assets/links`) and "Tags API" (`GET
/// /projects/:id/repository/tags/:tag_name`). `:id` is the project's path, URL-encoded. The token
/// goes in `PRIVATE-TOKEN` (a personal, project or group access token) or `JOB-TOKEN` (a CI job's
/// `CI_JOB_TOKEN`), to the API's origin only. The merge requests are `requests`. Every call goes
/// through `ForgeAPIClient`: this type holds GitLab's URLs, headers, JSON shapes and error hints only.
package struct GitLabAPI: Sendable {
    package static let defaultBaseURL = "https://gitlab.com/api/v4"

    package var baseURL: URL
    package var project: GitLabProject
    package var client: ForgeAPIClient

    package init(
        baseURL: URL, project: GitLabProject, token: String, tokenHeader: String, http: any HTTPClient,
        timeout: TimeInterval = 60, deadline: TimeInterval = HTTPRequest.defaultDeadline
    ) {
        self.baseURL = baseURL
        self.project = project
        let variable = tokenHeader == "JOB-TOKEN" ? "CI_JOB_TOKEN" : "GITLAB_TOKEN"
        client = ForgeAPIClient(
            forge: "GitLab", http: http, credential: HTTPCredential(header: tokenHeader, value: token, for: baseURL),
            secret: token, headers: ["Accept": "application/json"], timeout: timeout, deadline: deadline,
            paging: .header("X-Next-Page"), errors: Self.errors(variable: variable))
    }

    /// The header a token from `variable` goes in: `JOB-TOKEN` for a CI job's `CI_JOB_TOKEN`,
    /// `PRIVATE-TOKEN` for any other (a personal, project or group access token).
    package static func tokenHeader(_ variable: String) -> String {
        variable == "CI_JOB_TOKEN" ? "JOB-TOKEN" : "PRIVATE-TOKEN"
    }

    /// GitLab's error documents: `{"message": "…"}`, `{"message": {"field": ["…"]}}` or `{"error":
    /// "…"}`, with no documentation link; the hints name the token's variable.
    package static func errors(variable: String) -> ForgeErrorShape {
        ForgeErrorShape(
            documentationKey: nil,
            hints: [
                401: "check \(variable)",
                403:
                    "\(variable) needs the api scope (or the CI job token) and at least the Developer role on the project",
                404: "no such project, or \(variable) cannot see it",
            ])
    }

    /// `GITLAB_API_URL`, else `CI_API_V4_URL` (set in every GitLab CI job), else gitlab.com's.
    package static func baseURL(environment: [String: String]) throws -> URL {
        var variable = "GITLAB_API_URL"
        var raw = environment[variable] ?? ""
        if raw.isEmpty {
            variable = "CI_API_V4_URL"
            raw = environment[variable] ?? ""
        }
        if raw.isEmpty { raw = defaultBaseURL }
        guard let url = ForgeAPIClient.baseURL(raw) else {
            throw PublishError.badForgeURL(variable: variable, value: raw, example: "https://gitlab.example.com/api/v4")
        }
        return url
    }

    /// One path segment, percent-encoded so `/` and every other reserved character stay inside it.
    package static func segment(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(
            .init(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `BASE/projects/ID/REST` with REST's segments given already encoded.
    package func url(_ rest: String, query: [String: String] = [:]) -> URL {
        var text = baseURL.absoluteString + "/projects/" + Self.segment(project.path) + rest
        if !query.isEmpty {
            text +=
                "?"
                + query.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.segment($0.value))" }.joined(separator: "&")
        }
        // Built from encoded segments only, so this never fails for an http(s) base.
        return URL(string: text) ?? baseURL
    }

    /// Where a download of the package file `file` is served (the release link's URL).
    package func packageFileURL(package: String, version: String, file: String) -> String {
        url("/packages/generic/\(Self.segment(package))/\(Self.segment(version))/\(Self.segment(file))").absoluteString
    }

    // MARK: tags

    /// The tag's `target` (the tag object of an annotated tag, else the commit) and its commit; nil when absent.
    package func tag(_ tag: String) async throws -> (object: String, commit: String?)? {
        struct Tag: Decodable {
            struct Commit: Decodable { var id: String? }
            var target: String
            var commit: Commit?
        }
        let url = url("/repository/tags/\(Self.segment(tag))")
        guard let found = try await client.find(url, as: Tag.self, shown: "GET repository/tags/\(tag)") else {
            return nil
        }
        return (found.target, found.commit?.id)
    }

    // MARK: packages

    /// The files of generic package `name` at `version` (every package record of that name and
    /// version: GitLab may hold more than one), every page.
    package func packageFiles(package name: String, version: String) async throws -> [GitLabPackageFile] {
        struct Package: Decodable { var id: Int, name: String, version: String, package_type: String? }
        // `package_name` is a partial match: filter on the exact name and version here.
        let packages: [Package] = try await listAll(
            "/packages", query: ["package_type": "generic", "package_name": name])
        var files: [GitLabPackageFile] = []
        for package in packages where package.name == name && package.version == version {
            files += try await listAll("/packages/\(package.id)/package_files", query: [:])
        }
        return files
    }

    /// Uploads one file into the generic package, streamed from disk; GitLab answers with the
    /// package file it stored (`select=package_file`), its SHA256 included.
    package func upload(
        _ asset: Artifact, package: String, version: String, progress: (@Sendable (Int64) -> Void)? = nil
    ) async throws -> GitLabPackageFile {
        let target = url(
            "/packages/generic/\(Self.segment(package))/\(Self.segment(version))/\(Self.segment(asset.name))",
            query: ["select": "package_file"])
        var request = client.request("PUT", target, body: .file(asset.fileURL, size: asset.size))
        request.headers["Content-Type"] = "application/octet-stream"
        request.progress = progress
        // Each PUT adds a package file: a 502 whose upload landed must not be sent again blindly.
        request.retriedBlindly = false
        let response = try await client.send(request, expect: [200, 201])
        return try client.decode(GitLabPackageFile.self, response, request: "PUT \(asset.name)")
    }

    // MARK: releases

    package func release(_ tag: String) async throws -> GitLabRelease? {
        try await client.find(
            url("/releases/\(Self.segment(tag))"), as: GitLabRelease.self, shown: "GET releases/\(tag)")
    }

    /// Creates the release with every link in one request: it is public from that moment.
    package func createRelease(
        tag: String, title: String, description: String, links: [GitLabReleaseLink]
    ) async throws
        -> GitLabRelease
    {
        struct Fields: Encodable {
            struct Assets: Encodable { var links: [GitLabReleaseLink] }
            var tag_name: String, name: String, description: String, assets: Assets
        }
        return try await client.call(
            "POST", url("/releases"),
            json: Fields(tag_name: tag, name: title, description: description, assets: .init(links: links)),
            expect: [201], as: GitLabRelease.self, shown: "POST releases")
    }

    package func links(_ tag: String) async throws -> [GitLabReleaseLink] {
        try await listAll("/releases/\(Self.segment(tag))/assets/links", query: [:])
    }

    package func addLink(_ link: GitLabReleaseLink, tag: String) async throws {
        _ = try await client.send("POST", url("/releases/\(Self.segment(tag))/assets/links"), json: link, expect: [201])
    }

    // MARK: plumbing

    /// Offset pagination (docs.gitlab.com, "REST API": "Pagination"): `per_page` up to 100, and
    /// `X-Next-Page` names the next page, empty on the last.
    package func listAll<T: Decodable>(_ rest: String, query: [String: String]) async throws -> [T] {
        try await client.listAll("GET \(rest.drop { $0 == "/" })") { page in
            url(rest, query: query.merging(["per_page": "100", "page": String(page)]) { $1 })
        }
    }
}

/// A release as GitLab's Releases API returns it (docs.gitlab.com, "Releases API"), the fields
/// relctl reads. There is no draft: a GitLab release is public once it exists, so relctl creates
/// it last, with every link, after the package files are checked.
package struct GitLabRelease: Decodable, Sendable, Equatable {
    package struct Links: Decodable, Sendable, Equatable {
        package var selfURL: String?
        package enum CodingKeys: String, CodingKey { case selfURL = "self" }
    }
    package struct Assets: Decodable, Sendable, Equatable {
        package var links: [GitLabReleaseLink]?
    }

    package var tagName: String
    package var name: String?
    package var assets: Assets?
    package var links: Links?

    package enum CodingKeys: String, CodingKey {
        case name, assets
        case tagName = "tag_name"
        case links = "_links"
    }
}

/// A release asset link (docs.gitlab.com, "Release links API"). `link_type` is one of `other`,
/// `runbook`, `image`, `package`; `direct_asset_path` gives it the permanent URL
/// `…/-/releases/TAG/downloads/PATH`.
package struct GitLabReleaseLink: Codable, Sendable, Equatable {
    package var name: String
    package var url: String
    package var directAssetPath: String?
    package var linkType: String?
    /// In answers only: GitLab's permanent `…/-/releases/TAG/downloads/PATH` alias of this same
    /// link (or `url` itself when it has no path). It redirects to `url`, so `url` is what a
    /// download gets.
    package var directAssetURL: String?

    package enum CodingKeys: String, CodingKey {
        case name, url
        case directAssetPath = "direct_asset_path"
        case linkType = "link_type"
        case directAssetURL = "direct_asset_url"
    }

    /// The link for one asset: `package` for what users install (archives, Linux packages),
    /// `other` for the list, signatures, manifests.
    package init(asset name: String, url: String) {
        self.name = name
        self.url = url
        directAssetPath = "/" + name
        let packages = [".tar.gz", ".tgz", ".tar.xz", ".tar.zst", ".zip", ".deb", ".rpm", ".apk"]
        linkType = packages.contains { name.hasSuffix($0) } ? "package" : "other"
    }
}

/// One file of a package (docs.gitlab.com, "Packages API": "List package files"). GitLab keeps
/// every upload of a name as its own package file, and a download by name serves the newest.
package struct GitLabPackageFile: Decodable, Sendable, Equatable {
    package var id: Int
    package var packageID: Int
    package var fileName: String
    package var size: Int64
    /// Lowercase hex, computed by GitLab from the stored bytes.
    package var fileSHA256: String?

    package enum CodingKeys: String, CodingKey {
        case id, size
        case packageID = "package_id"
        case fileName = "file_name"
        case fileSHA256 = "file_sha256"
    }

    /// The copy a download by `name` serves: the newest (highest id) among same-name files.
    package static func newest(_ files: [GitLabPackageFile]) -> [String: GitLabPackageFile] {
        Dictionary(files.map { ($0.fileName, $0) }, uniquingKeysWith: { $0.id > $1.id ? $0 : $1 })
    }
}

/// A GitLab project by its full path (`group/subgroup/project`), the form the REST API accepts
/// URL-encoded in place of the numeric id (docs.gitlab.com, "REST API": "Namespaced paths").
package struct GitLabProject: Sendable, Equatable, CustomStringConvertible {
    package var path: String

    /// At least a namespace and a name; each part as GitLab allows in a path (letters, digits,
    /// `_`, `-`, `.`; not starting with `-`, never `.` or `..`).
    package init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2,
            parts.allSatisfy({ part in
                !part.isEmpty && part != "." && part != ".." && !part.hasPrefix("-")
                    && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
            })
        else { return nil }
        path = trimmed
    }

    package var description: String { path }

    /// The path as the `:id` of an API URL: every `/` as `%2F`.
    package var encoded: String { path.replacingOccurrences(of: "/", with: "%2F") }

    /// `[publish] gitlab`, else `CI_PROJECT_PATH` (set in every GitLab CI job).
    package static func resolve(configured: String?, environment: [String: String]) throws -> GitLabProject {
        let named = try ForgeSetting.first(
            [
                (configured, "relctl.toml [publish] gitlab"),
                (ForgeSetting.set(environment["CI_PROJECT_PATH"]), "CI_PROJECT_PATH"),
            ],
            { GitLabProject($0) }, bad: PublishError.badProjectPath(value:source:))
        if let named { return named }
        throw PublishError.noProject(
            forge: "GitLab",
            hint: "set `gitlab = \"GROUP/PROJECT\"` in relctl.toml's [publish] section or CI_PROJECT_PATH")
    }
}

/// docs.gitlab.com, "Merge requests API": `GET /projects/:id/merge_requests` filtered with
/// `source_branch` and `state=opened` (offset pagination, `X-Next-Page`), `POST
/// /projects/:id/merge_requests`, `PUT /projects/:id/merge_requests/:iid` (title, description,
/// `state_event: close`).
extension GitLabAPI {
    package var requests: ForgeRequests<GitLabMergeRequest> {
        let api = self
        return ForgeRequests(
            client: client, noun: "merge request", place: project.description, collection: "merge_requests",
            url: { api.url("/" + $0) },
            listOpen: { head in
                try await api.listAll("/merge_requests", query: ["state": "opened", "source_branch": head])
            },
            changeMethod: "PUT", changed: [200])
    }
}

/// A merge request as GitLab's Merge requests API returns it, and the bodies its calls take.
package struct GitLabMergeRequest: ForgeRequestDocument {
    var iid: Int, title: String, description: String?, web_url: String
    var source_branch: String, target_branch: String
    /// The projects the branches belong to: a fork's id as the source of a request from a fork.
    var source_project_id: Int?, target_project_id: Int?

    package var request: ForgeRequest {
        ForgeRequest(
            number: iid, title: title, body: description ?? "", head: source_branch, base: target_branch,
            url: web_url, sourceRepository: source_project_id, targetRepository: target_project_id)
    }

    struct Creating: Encodable {
        var source_branch: String, target_branch: String, title: String, description: String
        /// The branch is relctl's: GitLab deletes it once the request is merged.
        var remove_source_branch = true
    }
    struct Updating: Encodable { var title: String, description: String }
    struct Closing: Encodable { var state_event = "close" }

    package static func creating(head: String, base: String, title: String, body: String) -> any Encodable {
        Creating(source_branch: head, target_branch: base, title: title, description: body)
    }
    package static func updating(title: String, body: String) -> any Encodable {
        Updating(title: title, description: body)
    }
    package static var closing: any Encodable { Closing() }
}
