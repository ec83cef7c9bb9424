import Foundation

/// Git queries and actions the release and train commands need: remote tags, annotated and
/// signed tags, pushing and deleting a tag, and scratch clones for dry runs.
extension Git {
    /// The repository's real git directory (`.git`, or the main one for a linked worktree),
    /// where the release lock lives so that `git status` never sees it.
    package func commonDirectory() async throws -> URL {
        let text = try await run(["rev-parse", "--git-common-dir"]).trimmingCharacters(in: .whitespacesAndNewlines)
        return AbsolutePath(text, relativeTo: AbsolutePath(directory)).url
    }

    /// Whether `remote` already has `refs/tags/TAG`. Throws when the remote cannot be reached,
    /// so an unreachable remote is reported rather than read as "no such tag".
    package func remoteTagExists(_ tag: String, remote: String) async throws -> Bool {
        let result = try await runUnchecked(["ls-remote", "--tags", remote, "refs/tags/\(tag)"])
        guard result.succeeded else {
            throw GitError.failed(
                CommandError(
                    command: "git ls-remote --tags \(remote) refs/tags/\(tag)", status: result.status,
                    output: result.stderrText))
        }
        return result.stdoutText.split(separator: "\n").contains { $0.hasSuffix("refs/tags/\(tag)") }
    }

    /// Creates an annotated tag (signed with `git tag -s` when `sign` is true) on `commit`.
    package func createAnnotatedTag(_ tag: String, commit: String, message: String, sign: Bool) async throws {
        let messageFile = try Temporaries.writeScratchFile("tag-message", message)
        defer { Temporaries.removeScratchFile(messageFile) }
        try await run(
            ["tag", sign ? "-s" : "-a", "--cleanup=verbatim", "-F", messageFile.path, tag, commit], gated: true)
    }

    /// Pushes `tags` in one `git push --atomic` (all land or none); a remote without the atomic
    /// capability gets one push of them all (`atomic` false in the answer, so the caller says so).
    package func pushTags(_ tags: [String], remote: String) async throws -> (result: ProcessResult, atomic: Bool) {
        let refspecs = tags.map { "refs/tags/\($0):refs/tags/\($0)" }
        let atomic = try await runUnchecked(["push", "--porcelain", "--atomic", remote] + refspecs, gated: true)
        guard !atomic.succeeded, Self.refusesAtomic(atomic.stderrText) else { return (atomic, true) }
        return (try await runUnchecked(["push", "--porcelain", remote] + refspecs, gated: true), false)
    }

    /// Pushes exactly one tag; the result is returned so a rejection can be explained.
    package func pushTag(_ tag: String, remote: String, dryRun: Bool = false) async throws -> ProcessResult {
        try await runUnchecked(
            ["push", "--porcelain"] + (dryRun ? ["--dry-run"] : []) + [remote, "refs/tags/\(tag):refs/tags/\(tag)"],
            gated: !dryRun)
    }

    /// Deletes a tag on a remote; the result is returned so rollbacks can report what failed.
    /// With `object`, only while the remote's tag is still that object (`--force-with-lease`):
    /// a tag someone else pushed meanwhile is never deleted.
    package func deleteRemoteTag(
        _ tag: String, remote: String, ifAt object: String? = nil
    ) async throws -> ProcessResult {
        let lease = object.map { ["--force-with-lease=refs/tags/\(tag):\($0)"] } ?? []
        return try await runUnchecked(["push", "--porcelain"] + lease + [remote, ":refs/tags/\(tag)"])
    }

    /// Deletes a local tag; true when it is gone afterwards.
    @discardableResult
    package func deleteLocalTag(_ tag: String) async -> Bool {
        _ = try? await runUnchecked(["tag", "-d", tag])
        return await !localTagExists(tag)
    }

    /// A clone of this repository in `destination` with `commit` checked out (detached). It
    /// borrows the objects (`--shared`), so it is quick and writes nothing in this repository.
    /// `settings` become the clone's own config (`git clone --config`), at no extra call; the
    /// clone's link back to this repository gets a remote name of its own, so `settings` may set
    /// `remote.origin.url` without clone overwriting it.
    package func scratchClone(
        to destination: URL, commit: String, settings: [(key: String, value: String)] = []
    ) async throws -> Git {
        let configs = settings.flatMap { ["--config", "\($0.key)=\($0.value)"] }
        try await run(
            ["clone", "--quiet", "--shared", "--no-checkout", "--origin", "relctl-scratch-source"] + configs + [
                directory.path, destination.path,
            ])
        let clone = Git(directory: destination, context: context)
        try await clone.run(["checkout", "--quiet", "--detach", commit])
        try await clone.checkoutSubmodules(like: directory)
        return clone
    }

    /// In a scratch clone: checks out the submodules `project` has checked out (and only those, so
    /// a dry run builds what the real run builds), cloned from the project's checkouts without
    /// network at the commits the released commit records; recursively.
    package func checkoutSubmodules(like project: URL) async throws {
        guard FileSystem.exists(atPath: directory.appendingPathComponent(".gitmodules").path) else {
            return
        }
        let listing =
            (try? await run(["config", "--file", ".gitmodules", "--get-regexp", #"^submodule\..*\.path$"#])) ?? ""
        var paths: [String] = []
        for line in listing.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let name = line[..<space].dropFirst("submodule.".count).dropLast(".path".count)
            let path = String(line[line.index(after: space)...])
            let checkout = project.appendingPathComponent(path)
            guard FileSystem.exists(atPath: checkout.appendingPathComponent(".git").path) else { continue }
            try await run(["config", "submodule.\(name).url", checkout.path])
            paths.append(path)
        }
        guard !paths.isEmpty else { return }
        try await run(["-c", "protocol.file.allow=always", "submodule", "update", "--quiet", "--"] + paths)
        for path in paths {
            try await Git(directory: directory.appendingPathComponent(path), context: context).checkoutSubmodules(
                like: project.appendingPathComponent(path))
        }
    }
}

/// A tag as git stores it: the tag object (for an annotated tag) and the commit it points at.
/// Comparing objects, not commits, tells this run's tag from someone else's on the same commit.
package struct TagRef: Sendable, Equatable, Encodable {
    package var object: String
    package var commit: String
}
