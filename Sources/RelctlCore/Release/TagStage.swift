import Foundation

/// Creates the annotated tag (`git tag -s` when `[release] sign`) on the released commit, with a
/// message summarising the release. On a dry run the tag is made in the scratch clone, which
/// proves the identity and signing key work without touching the project.
public struct TagStage: ReleaseStage {
    public init() {}
    public var name: String { "tag" }
    public var produces: Set<ReleaseFact> { [.tag] }
    public var needsPassingPreflight: Bool { true }

    public func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let message = Self.message(identity: run.identity, artifacts: outputs.artifacts)
        let git = run.git
        let directory = git.directory
        let tag = run.tag
        let sign = run.config.release.sign
        // Registered before the tag exists so a Ctrl-C at any moment leaves none behind.
        let guardID = run.guards.add {
            _ = InterruptActions.git(["tag", "-d", tag], in: directory)
        }
        do {
            try await BlockingWork.run {
                try git.createAnnotatedTag(tag, commit: run.identity.commit, message: message, sign: sign)
            }
        } catch let error as RelctlError {
            run.guards.remove(guardID)
            let hint = sign ? " (signing is on: check `git config user.signingkey` and that gpg/ssh signing works)" : ""
            throw ReleaseError.tagNotCreated(cause: error, hint: hint)
        }
        outputs.tag = CreatedTag(name: tag, message: message, signed: sign)
        let kind = sign ? "signed annotated" : "annotated"
        return "\(kind) \(tag) on \(run.identity.commit.prefix(12))" + (run.isDryRun ? " (in the scratch clone)" : "")
    }

    public func undo(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) -> [String] {
        // A rejected push deletes the tag itself (and says so).
        guard outputs.tag != nil, !run.isDryRun, run.git.localTagExists(run.tag) else { return [] }
        guard run.git.deleteLocalTag(run.tag) else {
            return ["could not delete the local tag \(run.tag); remove it with `git tag -d \(run.tag)`"]
        }
        outputs.tag = nil
        return ["deleted the local tag \(run.tag)"]
    }

    /// `<project> <tag>`, a line with version and commit, then one `SHA256  NAME` line per artifact.
    public static func message(identity: ReleaseIdentity, artifacts: [ReleaseManifest.Artifact]) -> String {
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
