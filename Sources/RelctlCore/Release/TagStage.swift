import Foundation

/// Creates the annotated tag (`git tag -s` when `[release] sign`) on the released commit, with a
/// message summarising the release. On a dry run the tag is made in the scratch clone, which
/// proves the identity and signing key work without touching the project.
public struct TagStage: ReleaseStage {
    public init() {}
    public var name: String { "tag" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let message = Self.message(for: run)
        run.tagMessage = message
        let git = run.git
        let directory = git.directory
        let tag = run.tag
        // Registered before the tag exists so a Ctrl-C at any moment leaves none behind.
        let guardID = InterruptActions.shared.add {
            _ = InterruptActions.git(["tag", "-d", tag], in: directory)
        }
        run.interruptGuards.append(guardID)
        do {
            try git.createAnnotatedTag(tag, commit: run.commit, message: message, sign: run.config.release.sign)
        } catch let error as RelctlError {
            InterruptActions.shared.remove(guardID)
            let hint = run.config.release.sign ? " (signing is on: check `git config user.signingkey` and that gpg/ssh signing works)" : ""
            throw SimpleError(error.exitCode, error.message + hint)
        }
        run.tagCreated = true
        let kind = run.config.release.sign ? "signed annotated" : "annotated"
        return "\(kind) \(tag) on \(run.commit.prefix(12))" + (run.isDryRun ? " (in the scratch clone)" : "")
    }

    public func undo(_ run: ReleaseRun) -> [String] {
        guard run.tagCreated, !run.isDryRun else { return [] }
        run.tagCreated = !run.git.deleteLocalTag(run.tag)
        return [run.tagCreated ? "could not delete the local tag \(run.tag); remove it with `git tag -d \(run.tag)`" : "deleted the local tag \(run.tag)"]
    }

    /// `<project> <tag>`, a line with version and commit, then one `SHA256  NAME` line per artifact.
    public static func message(for run: ReleaseRun) -> String {
        var lines = ["\(run.config.project.name) \(run.tag)", ""]
        lines.append("Release \(run.version) of \(run.config.project.name), commit \(run.commit).")
        if run.artifacts.isEmpty {
            lines.append("No archives.")
        } else {
            lines.append("")
            lines.append("Artifacts (SHA256):")
            for artifact in run.artifacts { lines.append("\(artifact.sha256)  \(artifact.name)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
