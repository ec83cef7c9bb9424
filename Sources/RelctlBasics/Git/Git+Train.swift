import Foundation

/// Git actions the train needs beyond a single release: pin commits, atomic branch-and-tag
/// pushes, and the reverts and checks of its rollback.
extension Git {
    /// `refs/tags/TAG` on `remote` (peeled to its commit), or nil when absent. Throws when the
    /// remote cannot be reached, so an outage is never read as "no such tag".
    package func remoteTag(_ tag: String, remote: String) async throws -> TagRef? {
        let result = try await runUnchecked(["ls-remote", remote, "refs/tags/\(tag)", "refs/tags/\(tag)^{}"])
        guard result.succeeded else {
            throw GitError.failed(
                CommandError(
                    command: "git ls-remote \(remote) refs/tags/\(tag)", status: result.status,
                    output: result.stderrText))
        }
        var object: String?
        var peeled: String?
        for line in result.stdoutText.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2 else { continue }
            if parts[1] == "refs/tags/\(tag)" { object = String(parts[0]) }
            if parts[1] == "refs/tags/\(tag)^{}" { peeled = String(parts[0]) }
        }
        guard let object else { return nil }
        return TagRef(object: object, commit: peeled ?? object)
    }

    /// The local `refs/tags/TAG`, or nil.
    package func localTag(_ tag: String) async -> TagRef? {
        guard let object = try? await runUnchecked(["rev-parse", "--verify", "--quiet", "refs/tags/\(tag)"]),
            object.succeeded,
            let commit = try? await runUnchecked(["rev-parse", "--verify", "--quiet", "refs/tags/\(tag)^{commit}"]),
            commit.succeeded
        else { return nil }
        return TagRef(
            object: object.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines),
            commit: commit.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Commits exactly `paths` with `message`; returns the new commit.
    package func commitPaths(_ paths: [String], message: String) async throws -> String {
        try await run(["add", "--"] + paths)
        let file = try Temporaries.writeScratchFile("commit-message", message)
        defer { Temporaries.removeScratchFile(file) }
        try await run(["commit", "--quiet", "--no-verify", "--cleanup=verbatim", "-F", file.path, "--"] + paths)
        return try await commit(of: "HEAD")
    }

    /// Pushes HEAD to `branch` and the tag in one `git push --atomic`: both land or neither. When
    /// the remote cannot do atomic pushes, the branch then the tag are pushed one after the other
    /// (`atomic` false in the answer) so the caller can say so.
    package func pushBranchAndTag(
        branch: String, tag: String, remote: String
    ) async throws -> (result: ProcessResult, atomic: Bool) {
        let refspecs = ["HEAD:refs/heads/\(branch)", "refs/tags/\(tag):refs/tags/\(tag)"]
        let atomic = try await runUnchecked(["push", "--porcelain", "--atomic", remote] + refspecs)
        guard !atomic.succeeded, Self.refusesAtomic(atomic.stderrText) else { return (atomic, true) }
        let first = try await runUnchecked(["push", "--porcelain", remote, refspecs[0]])
        guard first.succeeded else { return (first, false) }
        return (try await runUnchecked(["push", "--porcelain", remote, refspecs[1]]), false)
    }

    /// git's words when the receiving end lacks the `atomic` capability.
    package static func refusesAtomic(_ stderr: String) -> Bool {
        stderr.contains("does not support --atomic")
    }

    /// Pushes HEAD to `branch` (a plain fast-forward push, never forced).
    package func pushBranch(_ branch: String, remote: String) async throws -> ProcessResult {
        try await runUnchecked(["push", "--porcelain", remote, "HEAD:refs/heads/\(branch)"])
    }

    /// Paths (relative to the top) changed or added since HEAD, ignored files left out: what a
    /// command such as `bump --write` just wrote.
    package func changedPaths() async throws -> [String] {
        let changed = try await run(["diff", "--name-only", "-z", "HEAD"])
        let added = try await run(["ls-files", "--others", "--exclude-standard", "-z"])
        return Set((changed + added).split(separator: "\0").map(String.init)).sorted()
    }

}
