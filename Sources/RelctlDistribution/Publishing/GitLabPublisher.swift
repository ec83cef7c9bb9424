import Foundation
import RelctlArtifacts
import RelctlBasics

/// Publishes to GitLab. A GitLab release has no draft state, so the order makes the promise: every
/// asset goes into the project's generic package registry first (package = project name, version =
/// version), the package files are listed and each one's SHA256 compared with the local file, and
/// only then is the release created, once, with the notes and one link per asset. A re-run learns
/// what exists (package files, the release, its links): before the release, it uploads only what
/// is missing; once the release exists it is public and is compared, never written to. GitLab keeps
/// every upload of a name as its own package file and serves the newest: that is the copy compared.
public struct GitLabPublisher: ForgePublisher {
    public static let id = "gitlab"
    package static let forge = "GitLab"
    package static let tokenVariables = ["GITLAB_TOKEN", "CI_JOB_TOKEN"]

    package func prepare(_ request: PublishRequest, context: Context) throws -> (GitLabAPI, RetryingHTTPClient) {
        let environment = context.environment
        let (token, variable) = try Self.token(environment)
        if request.replace {
            throw PublishError.replaceUnsupported(
                forge: "GitLab",
                hint:
                    "a package file is never replaced by relctl; delete the differing file in GitLab (Deploy > Package registry) and run again without --replace; nothing was sent"
            )
        }
        let base = try GitLabAPI.baseURL(environment: environment)
        let project = try GitLabProject.resolve(configured: request.configuredGitLabProject, environment: environment)
        let (connection, client) = try session.connect(context)
        let api = GitLabAPI(
            baseURL: base, project: project, token: token, tokenHeader: GitLabAPI.tokenHeader(variable), http: client,
            timeout: connection.timeout, deadline: connection.deadline)
        return (api, client)
    }

    package let session: ForgeSession
    package init(session: ForgeSession) { self.session = session }

    /// The local assets against the package's newest same-name files.
    private struct Plan {
        var missing: [Artifact] = []
        var differing: [String] = []
        /// Names with more than one package file (earlier retries or runs); the newest is what counts.
        var duplicated: [String] = []

        init(_ local: [Artifact], files: [GitLabPackageFile]) {
            let newest = GitLabPackageFile.newest(files)
            for asset in local {
                guard let file = newest[asset.name] else {
                    missing.append(asset)
                    continue
                }
                if file.fileSHA256?.lowercased() != asset.sha256 { differing.append(asset.name) }
                if files.filter({ $0.fileName == asset.name }).count > 1 { duplicated.append(asset.name) }
            }
        }
    }

    public func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (api, client) = try prepare(request, context: context)
        let console = context.console
        let tag = request.tag
        let project = api.project.description
        let package = request.projectName
        let version = request.version.description
        console.info("publishing \(tag) to \(project) (\(api.baseURL.absoluteString))")
        let remoteTag = try await api.tag(tag)
        try PushedTagCheck.require(
            tag, found: remoteTag.map { ($0.object, $0.commit) }, local: request.localTagObject, repository: project)
        // A GitLab release is public once it exists: one that exists is compared, never written
        // to (no upload, no link); the same assets, nothing to do; anything else, exit 1.
        if let existing = try await api.release(tag) {
            return try await comparePublished(existing, request: request, api: api, console: console)
        }

        // Decide everything before changing anything: a differing file stops the run untouched.
        var plan = Plan(request.assets.assets, files: try await api.packageFiles(package: package, version: version))
        if !plan.differing.isEmpty {
            throw PublishError.differingPackageFiles(
                project: project, package: "\(package) \(version)", names: plan.differing)
        }
        var uploaded: [String] = []
        for asset in plan.missing {
            try await upload(asset, api: api, client: client, package: package, version: version, console: console)
            uploaded.append(asset.name)
        }

        // The complete set, as the API now reports it, before the release exists.
        plan = Plan(request.assets.assets, files: try await api.packageFiles(package: package, version: version))
        let problems =
            plan.missing.map { "`\($0.name)` is missing from package \(package) \(version)" }
            + plan.differing.map { "`\($0)` has a different SHA256 in package \(package) \(version)" }
        if !problems.isEmpty { throw PublishError.incomplete(release: "\(project) \(tag)", problems: problems) }
        if !plan.duplicated.isEmpty {
            console.detail(
                "package \(package) \(version) holds several copies of \(plan.duplicated.joined(separator: ", ")); the newest, checked, is served"
            )
        }

        let links = wantedLinks(request, api: api)
        var report = PublishReport(
            publisher: id, repository: project, tag: tag, releaseID: 0, url: "",
            outcome: .published, created: false, prerelease: request.version.isPrerelease, latest: nil,
            uploaded: uploaded, unchanged: request.assets.names.filter { !uploaded.contains($0) }, replaced: [],
            repaired: [])
        if request.draftOnly {
            report.outcome = .draft
            console.info(
                "\(tag): every asset is in package \(package) \(version) and checked; no release created (--draft: a GitLab release is public once it exists)"
            )
            return report
        }
        guard let created = try await createRelease(api: api, client: client, request: request, links: links) else {
            // Created meanwhile (an earlier attempt whose answer was lost, a concurrent run): compared only.
            guard let existing = try await api.release(tag) else {
                throw PublishError.incomplete(
                    release: "\(project) \(tag)", problems: ["the release could not be created"])
            }
            return try await comparePublished(existing, request: request, api: api, console: console)
        }
        report.created = true
        report.url = created.links?.selfURL ?? ""
        console.info("published \(tag) on \(project) with \(links.count) assets: \(report.url)")
        return report
    }

    /// The links this release has: one per asset, to its package file.
    private func wantedLinks(_ request: PublishRequest, api: GitLabAPI) -> [GitLabReleaseLink] {
        let (package, version) = (request.projectName, request.version.description)
        return request.assets.names.map {
            GitLabReleaseLink(asset: $0, url: api.packageFileURL(package: package, version: version, file: $0))
        }
    }

    /// An existing (so public) release against the local set, with reads only: every asset linked
    /// to its package file and that file's newest copy holding the local bytes is "already
    /// published"; a missing link or file, or other bytes, is exit 1 naming each.
    private func comparePublished(
        _ existing: GitLabRelease, request: PublishRequest, api: GitLabAPI, console: Console
    ) async throws -> PublishReport {
        let (tag, project) = (request.tag, api.project.description)
        try await requirePublishedComplete(request, api: api)
        console.info(
            "\(tag) is already published on \(project) with the same \(request.assets.assets.count) assets: nothing to do"
        )
        return PublishReport(
            publisher: id, repository: project, tag: tag, releaseID: 0,
            url: existing.links?.selfURL ?? "", outcome: .alreadyPublished, created: false,
            prerelease: request.version.isPrerelease, latest: nil, uploaded: [], unchanged: request.assets.names,
            replaced: [], repaired: [])
    }

    /// Throws unless the existing release links every asset to its package file and each file's
    /// newest copy holds the local bytes.
    private func requirePublishedComplete(_ request: PublishRequest, api: GitLabAPI) async throws {
        let (tag, project) = (request.tag, api.project.description)
        let plan = Plan(
            request.assets.assets,
            files: try await api.packageFiles(package: request.projectName, version: request.version.description))
        let present = try await api.links(tag)
        let wanted = wantedLinks(request, api: api)
        for link in wanted { try Self.requireSameTarget(link, among: present, release: "\(project) \(tag)") }
        let linked = Set(present.map(\.name))
        let missing = Set(plan.missing.map(\.name)).union(wanted.map(\.name).filter { !linked.contains($0) })
        if !missing.isEmpty || !plan.differing.isEmpty {
            throw PublishError.publishedReleaseDiffers(
                release: "release \(tag) on \(project)", missing: missing.sorted(), differing: plan.differing.sorted())
        }
    }

    public func comparePublished(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        let (api, _) = try prepare(request, context: context)
        guard try await api.release(request.tag) != nil else { return nil }
        try await requirePublishedComplete(request, api: api)
        return PublishedForgeRelease(
            shown: "release \(request.tag) on \(api.project)", assetNames: Set(request.assets.names))
    }

    public func publishedRelease(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        let (api, _) = try prepare(request, context: context)
        guard try await api.release(request.tag) != nil else { return nil }
        let names = try await api.links(request.tag).map(\.name)
        return PublishedForgeRelease(shown: "release \(request.tag) on \(api.project)", assetNames: Set(names))
    }

    public func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (api, _) = try prepare(request, context: context)
        let project = api.project.description
        let version = request.version.description
        let existing = try await api.release(request.tag)
        // What the real run would find: an existing release is compared, never written to.
        if existing != nil { try await requirePublishedComplete(request, api: api) }
        let plan = Plan(
            request.assets.assets, files: try await api.packageFiles(package: request.projectName, version: version))
        if !plan.differing.isEmpty {
            throw PublishError.differingPackageFiles(
                project: project, package: "\(request.projectName) \(version)", names: plan.differing)
        }
        let missing = plan.missing.map(\.name)
        return PublishReport(
            publisher: id, repository: project, tag: request.tag, releaseID: 0, url: existing?.links?.selfURL ?? "",
            outcome: .rehearsed, created: false, prerelease: request.version.isPrerelease, latest: nil,
            uploaded: missing, unchanged: request.assets.names.filter { !missing.contains($0) }, replaced: [],
            repaired: [])
    }

    /// Uploads one file. A copy that arrived with other bytes is superseded by uploading again:
    /// the newest copy is the one GitLab serves (and the one the check compares).
    private func upload(
        _ asset: Artifact, api: GitLabAPI, client: RetryingHTTPClient, package: String, version: String,
        console: Console
    ) async throws {
        for attempt in 1...client.policy.maxAttempts {
            console.info("uploading \(asset.name) (\(ByteCount.format(asset.size))) to package \(package) \(version)")
            let progress = UploadProgress(console: console, name: asset.name, total: asset.size)
            let stored: GitLabPackageFile
            do {
                defer { progress.finish() }
                stored = try await api.upload(asset, package: package, version: version) { progress.update($0) }
            } catch let error where GitHubPublisher.outcomeUnknown(error) {
                // A 502 or a lost answer may follow a stored file: look before sending it again,
                // so the package never holds a needless second copy.
                let files = try await api.packageFiles(package: package, version: version)
                if let landed = GitLabPackageFile.newest(files)[asset.name],
                    landed.fileSHA256?.lowercased() == asset.sha256
                {
                    console.info("\(asset.name): stored although the answer was an error; not sending it again")
                    return
                }
                let reason = (error as? any RelctlError)?.message ?? "\(error)"
                guard attempt < client.policy.maxAttempts else {
                    throw PublishError.uploadFailed(asset: asset.name, release: "\(package) \(version)", reason: reason)
                }
                try await client.backoff(after: attempt, reason: "uploading \(asset.name): \(reason)")
                continue
            }
            guard let sha256 = stored.fileSHA256?.lowercased(), sha256 != asset.sha256 else { return }
            console.warning(
                "`\(asset.name)` arrived with SHA256 \(sha256) instead of \(asset.sha256) (attempt \(attempt)); uploading it again"
            )
        }
    }

    /// Creates the release; nil when it turns out to exist already (an earlier attempt whose
    /// answer was lost, or 409 from a concurrent run): the caller then completes its links.
    private func createRelease(
        api: GitLabAPI, client: RetryingHTTPClient, request: PublishRequest, links: [GitLabReleaseLink]
    ) async throws -> GitLabRelease? {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await api.createRelease(
                    tag: request.tag, title: request.title, description: request.body, links: links)
            } catch let error where Self.status(error) == 409 {
                return nil
            } catch let error where GitHubPublisher.outcomeUnknown(error) && attempt < client.policy.maxAttempts {
                try await client.backoff(
                    after: attempt,
                    reason: "creating the release \(request.tag): \((error as? any RelctlError)?.message ?? "\(error)")"
                )
                if try await api.release(request.tag) != nil { return nil }
            }
        }
    }

    /// Every link of `wanted`'s name in `present` leads where `wanted` does (its package file).
    package static func requireSameTarget(
        _ wanted: GitLabReleaseLink, among present: [GitLabReleaseLink], release: String
    )
        throws
    {
        for link in present where link.name == wanted.name && link.url != wanted.url {
            throw PublishError.foreignLink(release: release, name: link.name, url: link.url, expected: wanted.url)
        }
    }

    package static func status(_ error: any Error) -> Int? {
        if case let PublishError.api(_, status, _, _, _)? = error as? PublishError { return status }
        return nil
    }
}
