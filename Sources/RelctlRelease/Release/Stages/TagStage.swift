import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution
import RelctlModel

/// Creates the annotated tag (`git tag -s` when `[release] sign`) on the released commit, with a
/// message summarising the release. On a dry run the tag is made in the scratch clone, which
/// proves the identity and signing key work without touching the project.
struct TagStage: ReleaseStage {
    init() {}
    static let stageName = "tag"
    var name: String { Self.stageName }
    var produces: Set<ReleaseFact> { [.tag] }
    var needsPassingPreflight: Bool { true }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let message = Self.message(identity: run.identity, artifacts: outputs.artifacts)
        let git = run.git
        let directory = git.directory
        let tag = run.tag
        let sign = run.config.release.sign
        if let recovery = run.recovery, recovery.resumes(tag) {
            return try await keep(recovery, message: message, run, &outputs)
        }
        if run.options.publish { try await Self.comparePublished(run, outputs) }
        if run.isDryRun, run.recovery?.rollsBack(tag) == true {
            // The scratch clone copied the killed release's tag, which the real run deletes first.
            _ = await git.deleteLocalTag(tag)
        }
        // Registered before the tag exists so a Ctrl-C at any moment leaves none behind.
        let guardID = run.guards.add {
            _ = InterruptActions.git(["tag", "-d", tag], in: directory)
        }
        // Recorded before `git tag` runs: if this process is killed, the next release knows the
        // tag may be ours, and which process group to wait for.
        let lock = run.lock
        lock?.record { $0.tagging = true }
        do {
            try await Self.recording(lock) {
                try await git.createAnnotatedTag(tag, commit: run.identity.commit, message: message, sign: sign)
            }
        } catch let error as RelctlError {
            run.guards.remove(guardID)
            let hint = sign ? " (signing is on: check `git config user.signingkey` and that gpg/ssh signing works)" : ""
            throw ReleaseError.tagNotCreated(cause: error, hint: hint)
        }
        if let lock, let object = await git.localTag(tag)?.object { lock.record { $0.tagObject = object } }
        outputs.tag = CreatedTag(name: tag, message: message, signed: sign)
        let kind = sign ? "signed annotated" : "annotated"
        return "\(kind) \(tag) on \(run.identity.commit.prefix(12))" + (run.isDryRun ? " (in the scratch clone)" : "")
    }

    /// Resuming a killed release whose tag is out: the tag is kept, provided its message lists
    /// exactly the archives this run built (a build that is not reproducible cannot finish it).
    private func keep(
        _ recovery: ReleaseRecovery, message: String, _ run: ReleaseRun, _ outputs: inout ReleaseOutputs
    ) async throws -> String {
        let git = run.git
        let tag = run.tag
        var existing = ""
        if let object = await git.localTag(tag)?.object {
            let body = try await git.run(["cat-file", "tag", object])
            existing = body.components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
        }
        guard existing.hasPrefix(message) else {
            throw ReleaseError.resumedTagDiffers(
                reason:
                    "\(tag), pushed by the killed release (pid \(recovery.dead.pid)), lists other archives or SHA256s than this run built (is the build reproducible?); dist/ is left as it was. Release a new version, or, if nobody uses \(tag), delete it on both sides and release again"
            )
        }
        outputs.tag = CreatedTag(name: tag, message: message, signed: run.config.release.sign)
        return
            "kept \(tag), created and pushed by the killed release (pid \(recovery.dead.pid)); it lists the same archives"
    }

    /// `--publish`, with the release's files made and nothing tagged yet: a forge whose release of
    /// the tag is already published is compared with them by SHA256 (reads only). The preflight
    /// could compare names only; the bytes are known now. A difference stops the release here,
    /// exit 1 naming each asset: no tag is created or pushed and nothing is uploaded.
    static func comparePublished(_ run: ReleaseRun, _ outputs: ReleaseOutputs) async throws {
        let forges = try ForgeSelection(settings: run.config.publish, http: run.context.http)
        let request = try await PublishStage.request(run, notes: outputs.notes, folder: run.stagingDirectory)
        guard !request.assets.assets.isEmpty else { return }
        for published in try await forges.comparePublished(request, context: run.context) {
            run.context.console.info(
                "\(published.shown) is already published with these \(request.assets.assets.count) assets (same SHA256)")
        }
    }

    /// Runs `body` recording the children it starts in the lock (a dry run has none).
    static func recording<T>(_ lock: ReleaseLock?, _ body: () async throws -> T) async rethrows -> T {
        guard let lock else { return try await body() }
        return try await lock.recordingChildren(body)
    }

    func undo(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async -> [String] {
        // A resumed release's tag is out already: it stays.
        if run.resumesTag, !run.isDryRun { return ["kept \(run.tag): the killed release had pushed it already"] }
        // A rejected push deletes the tag itself (and says so).
        guard outputs.tag != nil, !run.isDryRun, await run.git.localTagExists(run.tag) else { return [] }
        guard await run.git.deleteLocalTag(run.tag) else {
            return ["could not delete the local tag \(run.tag); remove it with `git tag -d \(run.tag)`"]
        }
        outputs.tag = nil
        return ["deleted the local tag \(run.tag)"]
    }

    /// `<project> <tag>`, a line with version and commit, then one `SHA256  NAME` line per artifact.
    static func message(identity: ReleaseIdentity, artifacts: [Artifact]) -> String {
        var lines = ["\(identity.project) \(identity.tag)", ""]
        lines.append("Release \(identity.version) of \(identity.project), commit \(identity.commit).")
        if artifacts.isEmpty {
            lines.append("No archives.")
        } else {
            lines.append("")
            lines.append("Artifacts (SHA256):")
            for artifact in artifacts { lines.append("\(artifact.sha256)  \(artifact.name)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
