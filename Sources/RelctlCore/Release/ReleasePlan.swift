import Foundation

/// What a release did, or on a dry run would do: the document `--json` prints and the plan a
/// maintainer reads before the real run.
public struct ReleasePlan: Sendable, Encodable {
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
    var warnings: [String] = []
    var stages: [StageRecord] = []
    var artifacts: [ReleaseManifest.Artifact] = []
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
        if let notes, !notes.isEmpty {
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
