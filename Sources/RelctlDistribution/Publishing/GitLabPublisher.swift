import Foundation
import RelctlArtifacts
import RelctlBasics

/// Publishes to GitLab. A GitLab release has no draft state, so the order makes the promise: every
/// asset goes into the project's generic package registry first (package = project name, version =
/// version), the package files are listed and each one's SHA256 compared with the local file, and
/// only then is the release created, once, with the notes and one link per asset. A re-run learns
/// what exists (package files, the release, its links) and adds only what is missing. GitLab keeps
/// every upload of a name as its own package file and serves the newest: that is the copy compared.
public struct GitLabPublisher: Publisher {
    public static let id = "gitlab"
    package static let tokenVariables = ["GITLAB_TOKEN", "CI_JOB_TOKEN"]

    public var id: String { Self.id }
    private let http: any HTTPClient
    private let policy: RetryPolicy

    package init(http: any HTTPClient, policy: RetryPolicy = .standard) {
        self.http = http
        self.policy = policy
    }

    public func preflight(_ request: PublishRequest, context: Context) throws {
        _ = try api(request, context: context)
    }

    private func api(_ request: PublishRequest, context: Context) throws -> (GitLabAPI, RetryingHTTPClient) {
        let environment = context.environment
        let token: String
        let header: String
        if let personal = environment["GITLAB_TOKEN"], !personal.isEmpty {
            (token, header) = (personal, "PRIVATE-TOKEN")
        } else if let job = environment["CI_JOB_TOKEN"], !job.isEmpty {
            (token, header) = (job, "JOB-TOKEN")
        } else {
            throw PublishError.noToken(publisher: "GitLab", variables: Self.tokenVariables)
        }
        if request.replace {
            throw PublishError.replaceUnsupported(
                forge: "GitLab",
                hint:
                    "a package file is never replaced by relctl; delete the differing file in GitLab (Deploy > Package registry) and run again without --replace; nothing was sent"
            )
        }
        let base = try GitLabAPI.baseURL(environment: environment)
        let project = try GitLabProject.resolve(configured: request.configuredGitLabProject, environment: environment)
        let console = context.console
        let policy = try GitHubPublisher.policy(self.policy, environment: environment)
        let client = RetryingHTTPClient(base: http, policy: policy, onWait: { console.warning($0) })
        var api = GitLabAPI(
            baseURL: base, project: project, token: token, tokenHeader: header, http: client,
            timeout: try GitHubPublisher.seconds("RELCTL_HTTP_TIMEOUT", environment) ?? 60)
        api.deadline = try GitHubPublisher.seconds("RELCTL_HTTP_DEADLINE", environment) ?? HTTPRequest.defaultDeadline
        return (api, client)
    }

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
        let (api, client) = try api(request, context: context)
        let console = context.console
        let tag = request.tag
        let project = api.project.description
        let package = request.projectName
        let version = request.version.description
        console.info("publishing \(tag) to \(project) (\(api.baseURL.absoluteString))")
        let remoteTag = try await api.tag(tag)
        try PushedTagCheck.require(
            tag, found: remoteTag.map { ($0.object, $0.commit) }, local: request.localTagObject, repository: project)
        let existing = try await api.release(tag)

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

        let links = request.assets.names.map {
            GitLabReleaseLink(asset: $0, url: api.packageFileURL(package: package, version: version, file: $0))
        }
        var report = PublishReport(
            publisher: id, repository: project, tag: tag, releaseID: 0, url: existing?.links?.selfURL ?? "",
            outcome: .published, created: false, prerelease: request.version.isPrerelease, latest: nil,
            uploaded: uploaded, unchanged: request.assets.names.filter { !uploaded.contains($0) }, replaced: [],
            repaired: [])
        if existing == nil, request.draftOnly {
            report.outcome = .draft
            console.info(
                "\(tag): every asset is in package \(package) \(version) and checked; no release created (--draft: a GitLab release is public once it exists)"
            )
            return report
        }
        if existing == nil,
            let created = try await createRelease(api: api, client: client, request: request, links: links)
        {
            report.created = true
            report.url = created.links?.selfURL ?? ""
            console.info("published \(tag) on \(project) with \(links.count) assets: \(report.url)")
            return report
        }

        // The release exists (from an earlier run, or a lost answer): add only the missing links.
        // A link of the right name counts only when it leads to the package file: one leading
        // elsewhere would have users download something else from a release called published.
        let present = try await api.links(tag)
        for link in links { try Self.requireSameTarget(link, among: present, release: "\(project) \(tag)") }
        let names = Set(present.map(\.name))
        var added: [String] = []
        for link in links where !names.contains(link.name) {
            try await addLink(link, api: api, client: client, tag: tag)
            added.append(link.name)
        }
        if report.url.isEmpty { report.url = try await api.release(tag)?.links?.selfURL ?? "" }
        let changed = !(uploaded.isEmpty && added.isEmpty)
        report.outcome = changed ? .updated : .alreadyPublished
        console.info(
            changed
                ? "\(tag) on \(project): \(added.count) link(s) added, \(uploaded.count) file(s) uploaded"
                : "\(tag) is already published on \(project) with the same \(links.count) assets: nothing to do")
        return report
    }

    public func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (api, _) = try api(request, context: context)
        let project = api.project.description
        let version = request.version.description
        let existing = try await api.release(request.tag)
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

    /// Adds one link; a lost answer is settled by the list (the link is there, or it is sent again).
    private func addLink(
        _ link: GitLabReleaseLink, api: GitLabAPI, client: RetryingHTTPClient, tag: String
    ) async throws {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await api.addLink(link, tag: tag)
            } catch let error
                where (GitHubPublisher.outcomeUnknown(error) || Self.status(error) == 400 || Self.status(error) == 422)
                && attempt < client.policy.maxAttempts
            {
                if GitHubPublisher.outcomeUnknown(error) {
                    try await client.backoff(
                        after: attempt,
                        reason: "linking \(link.name): \((error as? any RelctlError)?.message ?? "\(error)")")
                }
                let present = try await api.links(tag)
                if present.contains(where: { $0.name == link.name }) {
                    try Self.requireSameTarget(link, among: present, release: "\(api.project) \(tag)")
                    return
                }
                if !GitHubPublisher.outcomeUnknown(error) { throw error }
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
