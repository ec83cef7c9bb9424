import Foundation
import RelctlBasics
import RelctlModel

/// `[release] before` / `after`: shell commands run with `sh -c` in the project root (the scratch
/// clone on a dry run), with RELCTL_TAG, RELCTL_VERSION, RELCTL_DIST… in their environment.
struct HookStage: ReleaseStage {
    enum When: String, Sendable { case before, after }
    let when: When

    init(_ when: When) { self.when = when }

    var name: String { "\(when.rawValue)-hooks" }
    // After-hooks usually publish (upload, announce); a dry run must not do that.
    var dryRun: DryRunBehaviour { when == .after ? .skipped : .same }

    private func commands(_ run: ReleaseRun) -> [String] {
        when == .before ? run.config.release.before : run.config.release.after
    }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        if commands(run).isEmpty { return "no [release] \(when.rawValue) commands" }
        if dryRun == .skipped, run.isDryRun { return "dry run: would run \(commands(run).count) command(s)" }
        return nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        var environment = run.hookEnvironment
        // By the time after hooks run, DistStage has moved the staged files into dist/ and
        // removed the staging folder: the release's files are in dist/ now.
        if when == .after { environment["RELCTL_DIST"] = run.distDirectory.path }
        for line in commands(run) {
            run.progress.note("$ \(line)")
            let progress = run.progress
            let collected = StageOutput()
            let status = try await run.context.processes.stream(
                .shell(line, directory: run.config.root, environment: environment)
            ) { _, text in
                collected.append(text)
                progress.note(text)
            }
            guard status == 0 else {
                throw CommandError(command: line, status: status, output: collected.text)
            }
        }
        let summary = "\(commands(run).count) command(s)"
        guard when == .before else { return summary }
        return try await followHead(run, &outputs).map { summary + "; " + $0 } ?? summary
    }

    /// A `before` hook may commit (a changelog, a version file). The release then tags the new
    /// HEAD, never the stale commit, once the tag still matches the manifests there; it says so.
    private func followHead(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let git = run.git
        let (head, time) = try await git.commitAndTime(of: "HEAD")
        guard head != run.identity.commit else { return nil }
        let validation = try run.identity.validation(config: run.config)
        if let mismatch = validation.mismatchError {
            let moved = Diagnostic(
                "the hooks committed \(head.prefix(12)), where the manifests no longer match \(run.tag); release the version they set, or make the hooks leave it"
            )
            throw ProblemList(exitCode: .failure, diagnostics: [moved] + mismatch.diagnostics)
        }
        outputs.movedHead = (head, time)
        let message =
            "the hooks committed: \(run.tag) goes on the new HEAD \(head.prefix(12)) (was \(run.identity.commit.prefix(12))); push the branch as well as the tag"
        run.context.console.warning(message)
        return message
    }
}
