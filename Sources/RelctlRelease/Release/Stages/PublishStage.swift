import Foundation
import RelctlBasics
import RelctlDistribution

/// `--publish`: the last stage, `relctl publish TAG` on the sealed `dist/` (draft first, every
/// asset checked, then public in one request). It runs after the release is sealed, so a failure
/// undoes nothing: the tag is pushed and `dist/` complete, and `relctl publish TAG` finishes the
/// job (it resumes from what GitHub holds). On a dry run it checks what can be checked without
/// writing: the token, the repository, the asset set, and that the API answers with them.
struct PublishStage: ReleaseStage {
    init() {}
    var name: String { "publish" }
    var needs: Set<ReleaseFact> { [.pushedTag] }
    var produces: Set<ReleaseFact> { [.published] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.options.publish ? nil : "no --publish (publish later with `relctl publish \(run.tag)`)"
    }

    /// The request for this release's files in `folder` (its notes as the body).
    static func request(_ run: ReleaseRun, notes: String?, folder: URL) async throws -> PublishRequest {
        let identity = run.identity
        let project = Git(directory: run.projectRoot, context: run.context)
        var request = PublishRequest(
            tag: identity.tag, version: identity.version, tagFormat: run.config.project.tagFormat,
            projectName: identity.project,
            title: "\(identity.project) \(identity.tag)", body: notes ?? "",
            assets: ReleaseAssetSet(assets: []),
            configuredRepository: run.config.publish.github,
            // As configured: an insteadOf rewrite (a mirror) must not hide the GitHub repository.
            remoteURL: await project.configuredRemoteURL(run.config.release.remote)
        )
        request.configuredGitLabProject = run.config.publish.gitlab
        request.configuredGiteaRepository = run.config.publish.gitea
        request.extensionSettings = run.config.publish.extensions
        request.assets = try await ReleaseAssetSet.collect(
            dist: folder, shownDist: "dist", tag: identity.tag, tagOnly: identity.isTagOnly)
        return request
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let forges = try ForgeSelection(settings: run.config.publish, http: run.context.http)
        let identity = run.identity
        // The files of this release: dist/ once sealed, the scratch clone's dist/ on a dry run.
        let folder = run.isDryRun ? run.stagingDirectory : run.distDirectory
        var request = try await Self.request(run, notes: outputs.notes, folder: folder)
        try forges.preflight(request, context: run.context)
        if run.isDryRun {
            let reports = try await forges.rehearse(request, context: run.context)
            outputs.published = reports.first
            return reports.map {
                "would publish \(request.assets.assets.count) assets to \($0.repository) (\($0.summary))"
            }
            .joined(separator: "; ")
        }
        if let tag = outputs.tag?.name {
            request.localTagObject = try? await run.git.run(["rev-parse", "refs/tags/\(tag)"]).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
        do {
            let reports = try await forges.publish(request, context: run.context)
            outputs.published = reports.first
            return reports.map { "\($0.outcome.rawValue): \($0.url)" }.joined(separator: "; ")
        } catch let error as any RelctlError {
            throw ProblemList(
                exitCode: error.exitCode,
                diagnostics: error.diagnostics + [
                    Diagnostic(
                        "\(identity.tag) is tagged, pushed and in dist/; finish publishing with `relctl publish \(identity.tag)` (it resumes where this stopped)"
                    )
                ])
        }
    }
}
