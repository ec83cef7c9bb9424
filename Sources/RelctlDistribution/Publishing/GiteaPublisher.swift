import Foundation
import RelctlArtifacts
import RelctlBasics

/// Publishes to Gitea or Forgejo (one API v1), as GitHubPublisher does: find this tag's release
/// (drafts included) or create a draft, bring its attachments to exactly the local set, check the
/// whole set, then make it public in one PATCH. Gitea keeps no digest of an attachment, so each
/// one is checked by its size and then by the SHA256 of the bytes it serves (downloaded once per
/// attachment and run). Every step starts from what the API reports, so a re-run after any failure
/// finishes the job without uploading twice.
public struct GiteaPublisher: ForgePublisher {
    public static let id = "gitea"
    package static let forge = "Gitea/Forgejo"
    package static let tokenVariables = ["GITEA_TOKEN"]

    package func prepare(_ request: PublishRequest, context: Context) throws -> (GiteaReleaseAPI, RetryingHTTPClient) {
        let token = try Self.token(context.environment).value
        let base = try GiteaReleaseAPI.baseURL(environment: context.environment)
        let (connection, client) = try session.connect(context)
        let repository = try Self.repository(
            configured: request.configuredGiteaRepository, remoteURL: request.remoteURL)
        let api = GiteaReleaseAPI(
            baseURL: base, repository: repository, token: token, http: client, timeout: connection.timeout,
            deadline: connection.deadline)
        return (api, client)
    }

    /// `[publish] gitea`, else the remote's URL (a Forgejo Actions checkout's origin): `publish`
    /// and `release-pr` find the repository alike.
    package static func repository(configured: String?, remoteURL: String?) throws -> GitHubRepository {
        if let configured {
            guard let repository = GitHubRepository(configured) else {
                throw PublishError.badRepository(value: configured, source: "relctl.toml [publish] gitea")
            }
            return repository
        }
        if let remoteURL, let repository = GitHubRepository(remoteURL: remoteURL) { return repository }
        throw PublishError.noProject(
            forge: forge,
            hint: "set `gitea = \"OWNER/REPO\"` in relctl.toml's [publish] section (or give the project a remote)")
    }

    package let session: ForgeSession
    package init(session: ForgeSession) { self.session = session }

    public func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (api, client) = try prepare(request, context: context)
        let console = context.console
        let tag = request.tag
        let repository = api.repository.description
        console.info("publishing \(tag) to \(repository) (\(api.baseURL.absoluteString))")
        let (release, created) = try await openRelease(request, api: api, client: client, console: console)
        let shown = "release \(tag) (id \(release.id))"
        var checker = GiteaAttachmentCheck(api: api)

        // A published release is compared, never written to: the same assets, nothing to do;
        // anything else, exit 1 with no write request.
        if !release.draft {
            _ = try await publishedPlan(release, shown: shown, api: api, checker: &checker, request: request)
            console.info(
                "\(tag) is already published on \(repository) with the same \(request.assets.assets.count) assets: nothing to do"
            )
            return PublishReport(
                publisher: id, repository: repository, tag: tag, releaseID: release.id, url: release.htmlURL ?? "",
                outcome: .alreadyPublished, created: false, prerelease: release.prerelease, latest: nil, uploaded: [],
                unchanged: request.assets.names, replaced: [], repaired: [])
        }

        // Decide everything before changing anything: a differing attachment stops the run untouched.
        var plan = try await checker.plan(
            request.assets.assets, remote: try await api.listAssets(releaseID: release.id))
        if !plan.differing.isEmpty {
            guard request.replace else { throw PublishError.differingAssets(release: shown, names: plan.differing) }
            guard release.draft else { throw PublishError.replaceOnPublic(release: shown, names: plan.differing) }
            for name in plan.differing {
                console.warning(
                    "\(shown): replacing `\(outside: name)` (a different SHA256 there) because of --replace")
            }
        }
        for extra in plan.extra {
            console.warning("\(shown): attachment `\(outside: extra)` is not in this dist/ folder; left as it is")
        }
        let replaced = plan.differing
        for id in plan.differingIDs + plan.duplicates { try await api.deleteAsset(releaseID: release.id, id: id) }
        var uploaded: [String] = []
        for asset in request.assets.assets where !plan.present.contains(asset.name) {
            try await upload(asset, to: release, api: api, client: client, checker: &checker, console: console)
            if !replaced.contains(asset.name) { uploaded.append(asset.name) }
        }

        // The complete set, as the API now reports it, before anything becomes visible.
        plan = try await checker.plan(request.assets.assets, remote: try await api.listAssets(releaseID: release.id))
        let problems =
            plan.missing.map { "`\($0)` is missing" } + plan.differing.map { "`\($0)` has a different SHA256 there" }
        if !problems.isEmpty { throw PublishError.incomplete(release: shown, problems: problems) }

        let unchanged = request.assets.names.filter { !uploaded.contains($0) && !replaced.contains($0) }
        var report = PublishReport(
            publisher: id, repository: repository, tag: tag, releaseID: release.id, url: release.htmlURL ?? "",
            outcome: .published, created: created, prerelease: request.version.isPrerelease, latest: nil,
            uploaded: uploaded, unchanged: unchanged, replaced: replaced, repaired: [])
        if request.draftOnly {
            report.outcome = .draft
            console.info(
                "draft \(tag) on \(repository) is complete (\(request.assets.assets.count) assets) and not public")
            return report
        }
        let published = try await api.publish(
            releaseID: release.id, title: request.title, body: request.body, prerelease: request.version.isPrerelease)
        report.url = published.htmlURL ?? report.url
        console.info("published \(tag) on \(repository) with \(request.assets.assets.count) assets: \(report.url)")
        return report
    }

    /// A published release's attachments against the local set (reads only); throws unless every
    /// asset is there with its bytes.
    private func publishedPlan(
        _ release: GiteaRelease, shown: String, api: GiteaReleaseAPI, checker: inout GiteaAttachmentCheck,
        request: PublishRequest
    ) async throws -> GiteaAttachmentCheck.Plan {
        let plan = try await checker.plan(
            request.assets.assets, remote: try await api.listAssets(releaseID: release.id))
        if request.replace, !plan.differing.isEmpty {
            throw PublishError.replaceOnPublic(release: shown, names: plan.differing)
        }
        if !plan.missing.isEmpty || !plan.differing.isEmpty {
            throw PublishError.publishedReleaseDiffers(
                release: "\(shown) on \(api.repository)", missing: plan.missing.sorted(),
                differing: plan.differing.sorted())
        }
        return plan
    }

    public func comparePublished(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        let (api, _) = try prepare(request, context: context)
        guard let release = ReleaseChoice.choose(try await api.listReleases(), tag: request.tag, console: .silent),
            !release.draft
        else { return nil }
        let shown = "release \(request.tag) (id \(release.id))"
        var checker = GiteaAttachmentCheck(api: api)
        _ = try await publishedPlan(release, shown: shown, api: api, checker: &checker, request: request)
        return PublishedForgeRelease(shown: "\(shown) on \(api.repository)", assetNames: Set(request.assets.names))
    }

    public func publishedRelease(_ request: PublishRequest, context: Context) async throws -> PublishedForgeRelease? {
        let (api, _) = try prepare(request, context: context)
        guard let release = ReleaseChoice.choose(try await api.listReleases(), tag: request.tag, console: .silent),
            !release.draft
        else { return nil }
        let names = try await api.listAssets(releaseID: release.id).map(\.name)
        return PublishedForgeRelease(
            shown: "release \(request.tag) (id \(release.id)) on \(api.repository)", assetNames: Set(names))
    }

    /// The release for the pushed tag (checked to be the tag made here), created as a draft when
    /// there is none; and whether it is new.
    private func openRelease(
        _ request: PublishRequest, api: GiteaReleaseAPI, client: RetryingHTTPClient, console: Console
    ) async throws -> (GiteaRelease, created: Bool) {
        let tag = request.tag
        let repository = api.repository.description
        let remoteTag = try await api.tag(tag)
        try PushedTagCheck.require(
            tag, found: remoteTag.map { ($0.object, $0.commit) }, local: request.localTagObject, repository: repository)
        if let found = ReleaseChoice.choose(try await api.listReleases(), tag: tag, console: console) {
            console.detail("found release \(found.id) for \(tag) (\(found.draft ? "draft" : "published"))")
            return (found, false)
        }
        let release = try await createDraft(api: api, client: client, request: request)
        console.info("created draft release \(release.id) for \(tag)")
        return (release, true)
    }

    public func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport {
        let (api, _) = try prepare(request, context: context)
        let release = ReleaseChoice.choose(try await api.listReleases(), tag: request.tag, console: context.console)
        var checker = GiteaAttachmentCheck(api: api)
        var plan = try await checker.plan(request.assets.assets, remote: [])
        if let release, !release.draft {
            // What the real run would find: a published release is compared, never written to.
            plan = try await publishedPlan(
                release, shown: "release \(request.tag) (id \(release.id))", api: api, checker: &checker,
                request: request)
        } else if let release {
            plan = try await checker.plan(
                request.assets.assets, remote: try await api.listAssets(releaseID: release.id))
            let shown = "release \(request.tag) (id \(release.id))"
            if !plan.differing.isEmpty, !request.replace {
                throw PublishError.differingAssets(release: shown, names: plan.differing)
            }
            if !plan.differing.isEmpty, !release.draft {
                throw PublishError.replaceOnPublic(release: shown, names: plan.differing)
            }
        }
        let missing = plan.missing + plan.differing
        return PublishReport(
            publisher: id, repository: api.repository.description, tag: request.tag, releaseID: release?.id ?? 0,
            url: release?.htmlURL ?? "", outcome: .rehearsed, created: false, prerelease: request.version.isPrerelease,
            latest: nil, uploaded: missing.sorted(), unchanged: request.assets.names.filter { !missing.contains($0) },
            replaced: [], repaired: [])
    }

    /// Creates the draft. When the answer is lost (reset, 5xx) or Gitea says the tag already has
    /// a release (409: an earlier attempt got there), the list says what exists before any retry.
    private func createDraft(
        api: GiteaReleaseAPI, client: RetryingHTTPClient, request: PublishRequest
    ) async throws -> GiteaRelease {
        try await client.createOnce("creating the draft for \(request.tag)", exists: Self.conflict) {
            try await api.createDraft(
                tag: request.tag, title: request.title, body: request.body, prerelease: request.version.isPrerelease)
        } find: {
            ReleaseChoice.choose(try await api.listReleases(), tag: request.tag, console: .silent)
        }
    }

    /// Uploads one attachment and checks the bytes it serves. When an attempt ends without a clear
    /// answer, the list says whether it arrived (checked, done) or not (upload again).
    private func upload(
        _ asset: Artifact, to release: GiteaRelease, api: GiteaReleaseAPI, client: RetryingHTTPClient,
        checker: inout GiteaAttachmentCheck, console: Console
    ) async throws {
        var attempt = 0
        while true {
            attempt += 1
            console.info("uploading \(asset.name) (\(ByteCount.format(asset.size)))")
            let progress = UploadProgress(console: console, name: asset.name, total: asset.size)
            do {
                let stored: GiteaAttachment
                do {
                    defer { progress.finish() }
                    stored = try await api.upload(asset, releaseID: release.id, progress: { progress.update($0) })
                }
                if try await checker.matches(stored, asset) { return }
                // Bytes changed in transit: never leave them.
                try await api.deleteAsset(releaseID: release.id, id: stored.id)
                guard attempt < client.policy.maxAttempts else {
                    throw PublishError.incomplete(
                        release: "release \(release.tagName) (id \(release.id))",
                        problems: ["`\(asset.name)` arrived with other bytes than the local file"])
                }
            } catch let error where GitHubPublisher.outcomeUnknown(error) && attempt < client.policy.maxAttempts {
                try await client.backoff(
                    after: attempt,
                    reason: "uploading \(asset.name): \((error as? any RelctlError)?.message ?? "\(error)")")
                for there in try await api.listAssets(releaseID: release.id) where there.name == asset.name {
                    if try await checker.matches(there, asset) { return }
                }
            } catch let error as NetworkError {
                throw PublishError.uploadFailed(
                    asset: asset.name, release: "\(release.tagName) (id \(release.id))", reason: error.message)
            }
        }
    }

    /// 409 Conflict on creating a release: the tag already has one.
    package static func conflict(_ error: any Error) -> Bool {
        if case let PublishError.api(_, status, _, _, _)? = error as? PublishError { return status == 409 }
        return false
    }
}
