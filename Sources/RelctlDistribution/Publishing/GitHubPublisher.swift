import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Publishes to GitHub Releases, draft first: find this tag's release (drafts included) or
/// create a draft, bring its assets to exactly the local set, check the whole set, then make it
/// public in one request. Each step starts from what the API reports, so the same command run
/// again after a crash, a kill or a network failure finishes the job without uploading twice.
public struct GitHubPublisher: ForgePublisher {
    public static let id = "github"
    package static let forge = "GitHub"
    package static let tokenVariables = ["GITHUB_TOKEN", "GH_TOKEN"]

    /// Token, API base and repository, all checked before the first request.
    package func prepare(
        _ request: PublishRequest, context: Context
    ) throws -> (token: String, base: URL, repository: GitHubRepository) {
        let token = try Self.token(context.environment).value
        let base = try GitHubReleaseAPI.baseURL(environment: context.environment)
        _ = try session.connection(context.environment)
        let repository = try GitHubRepository.resolve(
            configured: request.configuredRepository, environment: context.environment,
            remoteURL: request.remoteURL, remoteName: "origin")
        return (token, base, repository)
    }

    package let session: ForgeSession
    package init(session: ForgeSession) { self.session = session }

    public func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (token, base, repository) = try prepare(request, context: context)
        let console = context.console
        let (connection, client) = try session.connect(context)
        let policy = connection.policy
        let api = GitHubReleaseAPI(
            baseURL: base, repository: repository, token: token, http: client, timeout: connection.timeout,
            deadline: connection.deadline)
        let prerelease = request.version.isPrerelease
        let tag = request.tag

        console.info("publishing \(tag) to \(repository) (\(base.absoluteString))")
        guard let remoteTag = try await api.tagObject(tag) else {
            throw PublishError.tagNotPushed(tag: tag, repository: repository.description)
        }
        if let local = request.localTagObject, local.lowercased() != remoteTag.lowercased() {
            throw PublishError.tagDiffers(tag: tag, repository: repository.description, remote: remoteTag, local: local)
        }
        let releases = try await api.listReleases()
        let (release, created) = try await findOrCreateRelease(
            among: releases, api: api, client: client, request: request, console: console)
        let shown = "release \(tag) (id \(release.id))"
        // A published release is compared, never written to: the same assets, nothing to do;
        // anything else, exit 1 with no write request (immutable releases would answer 422).
        if !release.draft {
            return try await comparePublished(release, shown: shown, api: api, request: request, console: console)
        }
        // Decide everything before changing anything: a differing asset stops the run untouched.
        let plan = try await planAssets(of: release, shown: shown, api: api, request: request, console: console)
        let (uploaded, replaced, repaired) = try await applyAssets(
            plan, to: release, api: api, client: client, request: request, policy: policy, console: console)
        try await confirmComplete(release, shown: shown, api: api, request: request)

        let unchanged = request.assets.names.filter { name in
            !uploaded.contains(name) && !repaired.contains(name) && !replaced.contains(name)
        }
        var report = PublishReport(
            publisher: id, repository: repository.description, tag: tag, releaseID: release.id, url: release.htmlURL,
            outcome: .published, created: created, prerelease: prerelease, latest: nil,
            uploaded: uploaded, unchanged: unchanged, replaced: replaced, repaired: repaired)
        if request.draftOnly {
            report.outcome = .draft
            console.info(
                "draft \(tag) is complete (\(request.assets.assets.count) assets) and not public: \(release.htmlURL)")
            return report
        }
        let latest = isLatest(request, among: releases)
        let published = try await api.publish(
            releaseID: release.id, title: request.title, body: request.body, prerelease: prerelease, makeLatest: latest)
        report.url = published.htmlURL
        report.latest = latest
        console.info(
            "published \(tag)\(prerelease ? " as a prerelease" : "")\(latest ? ", marked latest" : "") with \(request.assets.assets.count) assets: \(published.htmlURL)"
        )
        return report
    }

    /// A published release against the local set, by name and SHA256, with reads only: identical
    /// is "already published"; a missing or different asset is exit 1 naming each (`--replace`
    /// on a differing one says why it cannot be done).
    private func comparePublished(
        _ release: GitHubRelease, shown: String, api: GitHubReleaseAPI, request: PublishRequest, console: Console
    ) async throws -> PublishReport {
        let plan = try await publishedPlan(release, shown: shown, api: api, request: request)
        for extra in plan.extra {
            console.warning("\(shown): asset `\(outside: extra)` is not in this dist/ folder; left as it is")
        }
        console.info(
            "\(request.tag) is already published with the same \(request.assets.assets.count) assets: nothing to do (\(release.htmlURL))"
        )
        return PublishReport(
            publisher: id, repository: api.repository.description, tag: request.tag, releaseID: release.id,
            url: release.htmlURL, outcome: .alreadyPublished, created: false, prerelease: release.prerelease,
            latest: nil, uploaded: [], unchanged: request.assets.names, replaced: [], repaired: [])
    }

    /// The published release's assets against the local set; throws unless every one is there
    /// with the local SHA256.
    private func publishedPlan(
        _ release: GitHubRelease, shown: String, api: GitHubReleaseAPI, request: PublishRequest
    ) async throws -> AssetPlan {
        let plan = AssetPlan(local: request.assets.assets, remote: try await api.listAssets(releaseID: release.id))
        if request.replace, !plan.differing.isEmpty {
            throw PublishError.replaceOnPublic(release: shown, names: plan.differing.map(\.local.name))
        }
        if !plan.missing.isEmpty || !plan.differing.isEmpty {
            throw PublishError.publishedReleaseDiffers(
                release: "\(shown) on \(api.repository)", missing: plan.missing.map(\.name).sorted(),
                differing: plan.differing.map(\.local.name).sorted())
        }
        return plan
    }

    public func comparePublished(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        guard case let (api, release)? = try await published(request, context: context) else { return nil }
        let shown = "release \(request.tag) (id \(release.id))"
        _ = try await publishedPlan(release, shown: shown, api: api, request: request)
        return PublishedForgeRelease(shown: "\(shown) on \(api.repository)", assetNames: Set(request.assets.names))
    }

    public func publishedRelease(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        guard case let (api, release)? = try await published(request, context: context) else { return nil }
        let assets = try await api.listAssets(releaseID: release.id).filter(\.isUploaded)
        return PublishedForgeRelease(
            shown: "release \(request.tag) (id \(release.id)) on \(api.repository)",
            assetNames: Set(assets.map(\.name)))
    }

    /// This tag's published release (nil when there is none, or only a draft) and the API that
    /// read it, with reads only.
    private func published(
        _ request: PublishRequest, context: Context
    ) async throws -> (GitHubReleaseAPI, GitHubRelease)? {
        let (token, base, repository) = try prepare(request, context: context)
        let client = try session.connect(context).client
        let api = GitHubReleaseAPI(baseURL: base, repository: repository, token: token, http: client)
        guard let release = choose(try await api.listReleases(), tag: request.tag, console: .silent), !release.draft
        else { return nil }
        return (api, release)
    }

    /// The release for this tag (a draft is created when there is none), and whether it is new.
    private func findOrCreateRelease(
        among releases: [GitHubRelease], api: GitHubReleaseAPI, client: RetryingHTTPClient, request: PublishRequest,
        console: Console
    ) async throws -> (GitHubRelease, created: Bool) {
        let tag = request.tag
        if let found = choose(releases, tag: tag, console: console) {
            console.detail("found release \(found.id) for \(tag) (\(found.draft ? "draft" : "published"))")
            return (found, false)
        }
        let release = try await createDraft(
            api: api, client: client, request: request, prerelease: request.version.isPrerelease)
        console.info("created draft release \(release.id) for \(tag)")
        return (release, true)
    }

    /// What to upload, delete or leave, checked against `--replace` before anything changes.
    private func planAssets(
        of release: GitHubRelease, shown: String, api: GitHubReleaseAPI, request: PublishRequest, console: Console
    ) async throws -> AssetPlan {
        let remote = try await api.listAssets(releaseID: release.id)
        let plan = AssetPlan(local: request.assets.assets, remote: remote)
        if remote.contains(where: { $0.isUploaded && $0.digest == nil }) {
            console.warning(
                "\(shown): the server reports no SHA256 digest for some assets (an older GitHub Enterprise Server?); those are compared by size only"
            )
        }
        if !plan.differing.isEmpty {
            guard request.replace else {
                throw PublishError.differingAssets(release: shown, names: plan.differing.map(\.local.name))
            }
            guard release.draft else {
                throw PublishError.replaceOnPublic(release: shown, names: plan.differing.map(\.local.name))
            }
            for pair in plan.differing {
                console.warning(
                    "\(shown): replacing `\(pair.local.name)` (SHA256 \(outside: pair.remote.sha256 ?? "unknown") there, \(pair.local.sha256) here) because of --replace"
                )
            }
        }
        for extra in plan.extra {
            console.warning("\(shown): asset `\(outside: extra)` is not in this dist/ folder; left as it is")
        }

        return plan
    }

    /// Deletes unfinished and (with `--replace`) differing assets, then uploads what is missing.
    private func applyAssets(
        _ plan: AssetPlan, to release: GitHubRelease, api: GitHubReleaseAPI, client: RetryingHTTPClient,
        request: PublishRequest, policy: RetryPolicy, console: Console
    ) async throws -> (uploaded: [String], replaced: [String], repaired: [String]) {
        var repaired: [String] = []
        var replaced: [String] = []
        var uploaded: [String] = []
        for stale in plan.unfinished {
            console.info(
                "deleting `\(outside: stale.name)`: an earlier upload never finished (state \(outside: stale.state))")
            try await api.deleteAsset(id: stale.id)
            repaired.append(stale.name)
        }
        for pair in plan.differing {
            try await api.deleteAsset(id: pair.remote.id)
            replaced.append(pair.local.name)
        }
        for asset in plan.toUpload {
            try await upload(
                asset, to: release, api: api, client: client, console: console, policy: policy, replace: request.replace
            )
            if !repaired.contains(asset.name), !replaced.contains(asset.name) { uploaded.append(asset.name) }
        }

        return (uploaded, replaced, repaired)
    }

    /// The complete set, as the API now reports it, before anything becomes visible.
    private func confirmComplete(
        _ release: GitHubRelease, shown: String, api: GitHubReleaseAPI, request: PublishRequest
    ) async throws {
        let remote = try await api.listAssets(releaseID: release.id)
        let plan = AssetPlan(local: request.assets.assets, remote: remote)
        let problems =
            plan.missing.map { "`\($0.name)` is missing" }
            + plan.unfinished.map { "`\($0.name)` is still in state \($0.state)" }
            + plan.differing.map { "`\($0.local.name)` has a different SHA256 there" }
        if !problems.isEmpty { throw PublishError.incomplete(release: shown, problems: problems) }

    }

    public func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (token, base, repository) = try prepare(request, context: context)
        let console = context.console
        let client = try session.connect(context).client
        let api = GitHubReleaseAPI(baseURL: base, repository: repository, token: token, http: client)
        // Listing releases needs the token to be valid and to see the repository; drafts are
        // listed only to tokens that can write, so a draft seen here also proves write access.
        let releases = try await api.listReleases()
        let release = choose(releases, tag: request.tag, console: console)
        var remote: [GitHubAsset] = []
        if let release, !release.draft {
            // What the real run would find: a published release is compared, never written to.
            _ = try await publishedPlan(
                release, shown: "release \(request.tag) (id \(release.id))", api: api, request: request)
        }
        if let release { remote = try await api.listAssets(releaseID: release.id) }
        let plan = AssetPlan(local: request.assets.assets, remote: remote)
        if !plan.differing.isEmpty, let release {
            let shown = "release \(request.tag) (id \(release.id))"
            if !request.replace {
                throw PublishError.differingAssets(release: shown, names: plan.differing.map(\.local.name))
            }
            if !release.draft {
                throw PublishError.replaceOnPublic(release: shown, names: plan.differing.map(\.local.name))
            }
        }
        let missing = plan.toUpload.map(\.name)
        return PublishReport(
            publisher: id, repository: repository.description, tag: request.tag, releaseID: release?.id ?? 0,
            url: release?.htmlURL ?? "",
            outcome: .rehearsed, created: false, prerelease: request.version.isPrerelease,
            latest: isLatest(request, among: releases),
            uploaded: missing, unchanged: request.assets.names.filter { !missing.contains($0) }, replaced: [],
            repaired: plan.unfinished.map(\.name))
    }

    /// This tag's release (`ReleaseChoice`: the published one, else the oldest draft).
    private func choose(_ releases: [GitHubRelease], tag: String, console: Console) -> GitHubRelease? {
        ReleaseChoice.choose(releases, tag: tag, console: console)
    }

    /// Creates the draft. If the answer is lost (reset, 5xx), the draft may exist anyway: look
    /// before creating again, so a flaky network does not leave several drafts behind.
    private func createDraft(
        api: GitHubReleaseAPI, client: RetryingHTTPClient, request: PublishRequest, prerelease: Bool
    ) async throws -> GitHubRelease {
        try await client.createOnce("creating the draft for \(request.tag)") {
            try await api.createDraft(
                tag: request.tag, title: request.title, body: request.body, prerelease: prerelease)
        } find: {
            choose(try await api.listReleases(), tag: request.tag, console: .silent)
        }
    }

    /// Uploads one asset. When an attempt fails without a clear answer, the asset list says
    /// what happened: complete and identical (done), unfinished (deleted), or absent (upload again).
    private func upload(
        _ asset: Artifact, to release: GitHubRelease, api: GitHubReleaseAPI, client: RetryingHTTPClient,
        console: Console, policy: RetryPolicy, replace: Bool
    ) async throws {
        var attempt = 0
        while true {
            attempt += 1
            console.info("uploading \(asset.name) (\(ByteCount.format(asset.size)))")
            let start = Date()
            let progress = UploadProgress(console: console, name: asset.name, total: asset.size)
            do {
                let stored: GitHubAsset
                do {
                    defer { progress.finish() }
                    stored = try await api.upload(asset, to: release, progress: { progress.update($0) })
                }
                if stored.isUploaded, stored.matches(asset) {
                    console.detail(
                        "uploaded \(asset.name) in \(String(format: "%.1f", Date().timeIntervalSince(start)))s")
                    return
                }
                // Bytes changed in transit, or the server kept a partial file: never leave it.
                try await api.deleteAsset(id: stored.id)
                guard attempt < policy.maxAttempts else {
                    throw PublishError.incomplete(
                        release: "release \(release.tagName) (id \(release.id))",
                        problems: [
                            "`\(asset.name)` arrived with SHA256 \(stored.sha256 ?? "unknown") instead of \(asset.sha256)"
                        ])
                }
            } catch let error
                where (Self.outcomeUnknown(error) || Self.alreadyExists(error)) && attempt < policy.maxAttempts
            {
                if Self.outcomeUnknown(error) {
                    try await client.backoff(
                        after: attempt,
                        reason: "uploading \(asset.name): \((error as? any RelctlError)?.message ?? "\(error)")")
                }
                let current = try await api.listAssets(releaseID: release.id).first { $0.name == asset.name }
                if let current {
                    if current.isUploaded, current.matches(asset) { return }
                    // Complete but different: someone else uploaded it meanwhile. Never replace that silently.
                    if current.isUploaded, !replace {
                        throw PublishError.differingAssets(
                            release: "release \(release.tagName) (id \(release.id))", names: [asset.name])
                    }
                    try await api.deleteAsset(id: current.id)
                }
            } catch let error as NetworkError {
                // Name the file: the transport error only knows the upload URL.
                throw PublishError.uploadFailed(
                    asset: asset.name, release: "\(release.tagName) (id \(release.id))", reason: error.message)
            }
        }
    }

    /// `RELCTL_HTTP_RETRIES` (attempts per request, at least 1) over the built-in policy.
    package static func policy(_ policy: RetryPolicy, environment: [String: String]) throws -> RetryPolicy {
        var policy = policy
        if let attempts = try seconds("RELCTL_HTTP_RETRIES", environment) {
            guard attempts >= 1, attempts == attempts.rounded() else {
                throw PublishError.badRetries
            }
            policy.maxAttempts = Int(attempts)
        }
        return policy
    }

    /// A positive number from the environment, or nil when unset.
    package static func seconds(_ name: String, _ environment: [String: String]) throws -> Double? {
        guard let raw = environment[name], !raw.isEmpty else { return nil }
        guard let value = Double(raw), value > 0, value.isFinite else {
            throw PublishError.badNumber(variable: name, value: raw)
        }
        return value
    }

    /// A failure after which the server may or may not have acted: no answer, or a 5xx.
    package static func outcomeUnknown(_ error: any Error) -> Bool {
        if error is NetworkError { return true }
        if case let PublishError.api(_, status, _, _, _)? = error as? PublishError {
            return (500...599).contains(status)
        }
        return false
    }

    /// 422 `already_exists` on an upload: an earlier attempt got there after all.
    package static func alreadyExists(_ error: any Error) -> Bool {
        if case let PublishError.api(_, status, _, _, details)? = error as? PublishError {
            return status == 422 && details.contains { $0.contains("already_exists") }
        }
        return false
    }

    /// `make_latest` only for a final version at least as high as every other published final one.
    package func isLatest(_ request: PublishRequest, among releases: [GitHubRelease]) -> Bool {
        guard !request.version.isPrerelease else { return false }
        let reader = TagReader(request.tagFormat)
        let others = releases.filter { !$0.draft && !$0.prerelease && $0.tagName != request.tag }
            .compactMap { reader.releaseVersion(of: $0.tagName) }
            .filter { !$0.isPrerelease }
        return others.allSatisfy { $0 < request.version || $0.hasSamePrecedence(as: request.version) }
    }
}
