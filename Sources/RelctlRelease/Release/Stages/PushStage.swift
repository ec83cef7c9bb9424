import Foundation
import RelctlBasics
import RelctlModel

/// `--push`: pushes exactly the new tag to `[release] remote`. A rejected push deletes the local
/// tag, so the repository is as it was. On a dry run the push is `git push --dry-run` from the
/// scratch clone to the real remote URL: it checks reachability and permissions, sends nothing.
struct PushStage: ReleaseStage {
    init() {}
    var name: String { "push" }
    var needs: Set<ReleaseFact> { [.tag] }
    var produces: Set<ReleaseFact> { [.pushedTag] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.options.push ? nil : "no --push (push later with `git push \(run.config.release.remote) \(run.tag)`)"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let remote = run.config.release.remote
        let git = run.git
        let tag = run.tag
        if run.isDryRun {
            guard let configured = run.remoteURL else {
                throw ReleaseError.noRemote(remote)
            }
            // The project's effective URL (after its `insteadOf` rules), pushed to directly.
            let url = Self.absolute(configured, base: run.projectRoot)
            let result = try await git.pushTag(tag, remote: url, dryRun: true)
            guard result.succeeded else {
                throw ReleaseError.pushRehearsalFailed(tag: tag, remote: remote, output: result.outputTail)
            }
            outputs.pushedTo = url
            run.context.console.warning(Self.serverHooksUnseen(remote: remote))
            return "would push \(tag) to \(remote) (\(url)); server-side hooks not run"
        }
        let directory = git.directory
        if run.resumesTag, let recovery = run.recovery, let pushedTo = recovery.pushedTo,
            let object = recovery.tagObject,
            (try? await git.remoteTag(tag, remote: pushedTo))??.object == object
        {
            outputs.pushedTo = pushedTo
            outputs.pushedObject = object
            return "\(tag) is on \(pushedTo) already (pushed by the killed release, pid \(recovery.dead.pid))"
        }
        // Our own tag object: a rollback deletes the remote tag only while it is this object, so a
        // tag another maintainer pushed after our preflight is never touched.
        let object = try await git.run(["rev-parse", "refs/tags/\(tag)"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let guardID = run.guards.add {
            _ = InterruptActions.git(
                ["push", "--force-with-lease=refs/tags/\(tag):\(object)", remote, ":refs/tags/\(tag)"], in: directory)
        }
        let lock = run.lock
        lock?.record { $0.pushing = remote }
        let result = try await TagStage.recording(lock) { try await git.pushTag(tag, remote: remote) }
        guard result.succeeded else {
            run.guards.remove(guardID)
            let deleted = await git.deleteLocalTag(tag)
            if deleted { outputs.tag = nil }
            throw ReleaseError.pushRejected(
                tag: tag, remote: remote, output: result.stderrText + result.stdoutText, localTagDeleted: deleted)
        }
        lock?.record { $0.pushed = true }
        outputs.pushedTo = remote
        outputs.pushedObject = object
        return "pushed \(tag) to \(remote)"
    }

    func undo(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async -> [String] {
        // A tag the killed release pushed is not this run's to take back.
        guard outputs.pushedTo != nil, !run.isDryRun, !run.resumesTag else { return [] }
        let remote = run.config.release.remote
        let result = try? await run.git.deleteRemoteTag(run.tag, remote: remote, ifAt: outputs.pushedObject)
        guard result?.succeeded == true else {
            return [
                "could not delete \(run.tag) on \(remote) (it may no longer be the tag this run pushed): \(result.map(\.outputTail) ?? "git did not run"); if it is ours, delete it with `git push \(remote) :refs/tags/\(run.tag)`"
            ]
        }
        outputs.pushedTo = nil
        run.lock?.record { $0.pushed = false }
        return ["deleted \(run.tag) on \(remote)"]
    }

    /// What a dry run cannot promise: `git push --dry-run` stops before the remote receives
    /// anything, so its pre-receive and update hooks and its tag protection rules never run.
    static func serverHooksUnseen(remote: String) -> String {
        "the dry run cannot see \(remote)'s server-side hooks (pre-receive, update) or tag protection rules: `git push --dry-run` runs none of them, so the real push may still be refused (the local tag is then deleted again)"
    }

    /// A remote given as a relative path (`../core.git`) is relative to the project, not to the
    /// scratch clone the dry run pushes from.
    static func absolute(_ url: String, base: URL) -> String {
        let isPath =
            !url.contains("://") && !url.hasPrefix("/") && !(url.split(separator: "/").first?.contains(":") ?? false)
        return isPath ? AbsolutePath(url, relativeTo: AbsolutePath(base)).pathString : url
    }
}
