import Foundation
import RelctlArtifacts
import RelctlBasics

/// What a release did, or on a dry run would do: the document `--json` prints, the plan a
/// maintainer reads before the real run, and what `train run` reads back from each repository's
/// release (the same type both ways, so the two cannot drift).
public struct ReleasePlan: Sendable, Codable {
    var project: String
    var tag: String
    var version: String?
    var commit: String?
    var branch: String?
    var dryRun: Bool
    /// True when every check and stage passed: on a dry run, that the real run would succeed.
    var ok: Bool
    /// One line per problem (preflight or the failed stage), as printed on stderr.
    var problems: [String] = []
    /// The same problems with their file, line and message apart, for a program that acts on one
    /// kind (the train expects the manifest mismatches `--set-version` is about to fix).
    var problemDetails: [Diagnostic] = []
    var warnings: [String] = []
    var stages: [StageRecord] = []
    var artifacts: [Artifact] = []
    /// `[[image]]`s built: name, repository, index digest, tags, platforms (the same digest on a
    /// dry run and the real run of one commit).
    var images: [BuiltImage] = []
    /// The release notes (Markdown).
    var notes: String?
    /// The annotated tag's message.
    var tagMessage: String?
    var signed: Bool
    var push: Bool
    var remote: String
    /// The command that makes this release for real (same tag, push and target selection).
    var command: String
    /// Whether the tag now exists locally / on the remote (false on a dry run).
    var tagCreated: Bool = false
    var tagPushed: Bool = false
    /// The dist folder (the scratch clone's on a dry run).
    var dist: String?
    /// The names the dist stage moved into it (what a train's rollback removes); on a dry run, the
    /// names the real run would move: every file it writes (archives, SBOMs, installers, lists,
    /// signatures, manifest, notes).
    var distFiles: [String] = []
    /// The scratch folder kept by `--keep`.
    var scratch: String?
    /// Total wall-clock seconds.
    var seconds: Double = 0

    /// The document for a release that stopped before it had a plan (the configuration could not
    /// be read, another release holds the lock): `--json` still prints one, so a caller reads the
    /// problems from it rather than from stderr.
    public static func failed(tag: String, push: Bool, error: any RelctlError) -> ReleasePlan {
        var plan = ReleasePlan(
            project: "", tag: tag, dryRun: false, ok: false, signed: false, push: push, remote: "", command: "")
        plan.problems = error.diagnostics.map(\.description)
        plan.problemDetails = error.diagnostics
        return plan
    }

    /// True when the release stopped before its tag stage ran, so a tag there now is not its own.
    var neverTagged: Bool {
        guard let tag = stages.first(where: { $0.name == TagStage.stageName }) else { return false }
        return tag.status == .notRun || tag.status == .skipped
    }

    /// The files the dist stage moved into dist/ (none unless it ran); `repository` is the folder
    /// the release ran in, which a relative `dist` is relative to.
    func movedFiles(in repository: URL) -> [URL] {
        guard let dist, stages.contains(where: { $0.name == DistStage.stageName && $0.status == .ok }) else {
            return []
        }
        let folder = AbsolutePath(dist, relativeTo: AbsolutePath(repository)).url
        return distFiles.map { folder.appendingPathComponent($0) }.filter { FileSystem.exists($0) }
    }

    /// The plan as a maintainer reads it after `--dry-run`.
    public func rendered(color paint: (String, String) -> String = { text, _ in text }) -> String {
        var lines: [String] = []
        let mode = dryRun ? "Release plan (dry run: no tag, no push, nothing written in the project)" : "Release"
        lines.append("\(mode): \(project) \(tag)")
        if let version { lines.append("  version   \(version)") }
        if let commit { lines.append("  commit    \(commit)" + (branch.map { " (\($0))" } ?? "")) }
        let kind = signed ? "signed annotated tag" : "annotated tag"
        let verb = dryRun ? "would create" : tagCreated ? "created" : "not created"
        let pushText =
            push
            ? (dryRun
                ? ", would push to \(remote) (its server-side hooks cannot be seen from a dry run)"
                : tagPushed ? ", pushed to \(remote)" : ", not pushed")
            : ", not pushed (no --push)"
        lines.append("  tag       \(verb) \(kind) \(tag)\(pushText)")
        if !artifacts.isEmpty {
            lines.append("  artifacts")
            let width = artifacts.map(\.name.count).max() ?? 0
            for artifact in artifacts {
                let size = ByteCount.format(artifact.size)
                lines.append(
                    "    \(artifact.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(size.padding(toLength: 9, withPad: " ", startingAt: 0))  sha256 \(artifact.sha256)"
                )
            }
        }
        if !images.isEmpty {
            lines.append("  images")
            for image in images {
                let state = image.pushed ? "pushed" : dryRun && push ? "would push" : "built"
                lines.append(
                    "    \(image.repository)@\(image.digest)  \(state) as \(image.tags.joined(separator: ", ")) (\(image.platforms.joined(separator: ", ")))"
                )
            }
        }
        if let dist { lines.append("  dist      \(dist)") }
        if let scratch { lines.append("  scratch   \(scratch) (kept by --keep)") }
        if let notes, !notes.isEmpty, !dryRun {
            // The real run follows a dry run that showed them: where they are is enough.
            let count = notes.split(separator: "\n", omittingEmptySubsequences: false).count
            lines.append("  notes     RELEASE_NOTES.md\(dist.map { " in \($0)" } ?? "") (\(count) lines)")
        } else if let notes, !notes.isEmpty {
            lines.append("  notes")
            lines += notes.split(separator: "\n", omittingEmptySubsequences: false).map { "    | \($0)" }
        }
        if let tagMessage, dryRun {
            lines.append("  tag message")
            lines += tagMessage.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                "    | \($0)"
            }
        }
        if ok {
            lines.append(paint(dryRun ? "The real run would succeed: \(command)" : "Released \(project) \(tag).", "32"))
        } else {
            lines.append(
                paint(
                    dryRun
                        ? "The real run would FAIL (\(problems.count) problem\(problems.count == 1 ? "" : "s"), listed below)."
                        : "Release failed.", "31"))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The result of a release: the plan/report, and the error to exit with (nil on success).
public struct ReleaseOutcome: Sendable {
    public var plan: ReleasePlan
    public var error: (any RelctlError)?
}
