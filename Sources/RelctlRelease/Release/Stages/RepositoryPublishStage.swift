import Foundation
import RelctlBasics
import RelctlDistribution

/// With `--publish` and `[repository] branch`: commits `apt/` and `dnf/` to that branch of the
/// project's remote once the release is out, as `relctl repository --publish` does. Like the
/// channels, a failure here takes nothing back (the tag is out) and says how to finish; a dry run
/// clones, compares and rehearses the push.
struct RepositoryPublishStage: ReleaseStage {
    init() {}
    var name: String { "repository-publish" }
    var needs: Set<ReleaseFact> { [.repositories, .tag] }
    var produces: Set<ReleaseFact> { [.publishedRepositories] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        guard run.config.repositories.isEnabled, run.config.repositories.branch != nil else {
            return "no [repository] branch to publish the package repositories to"
        }
        return run.options.publish ? nil : "the repository branch is published with --publish"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        run.progress.update("publishing the package repositories")
        // Once dist/ is sealed the repositories live there, no longer in the staging folder.
        let dist = outputs.distFiles != nil ? run.distDirectory : run.stagingDirectory
        let published: [String]
        do {
            published = try await RepositoryPublisher(context: run.context).publish(
                config: run.config, dist: dist, tag: run.tag, time: run.identity.packagingInputs.mtime,
                dryRun: run.isDryRun, projectRoot: run.projectRoot)
        } catch let error as RelctlError where !run.isDryRun {
            throw ProblemList(
                exitCode: error.exitCode,
                diagnostics: error.diagnostics + [
                    Diagnostic(
                        "\(run.tag) is released; once fixed, finish with `relctl repository --tag \(run.tag) --publish`"
                    )
                ])
        }
        outputs.publishedRepositories = published
        return published.isEmpty ? "the branch already holds them" : published.joined(separator: ", ")
    }
}
