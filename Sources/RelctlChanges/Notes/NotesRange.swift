import Foundation
import RelctlBasics
import RelctlModel

/// Which history a set of notes covers: the changes up to `targetCommit` since `previous`.
package struct NotesRange: Sendable, Equatable {
    /// The release's tag (given, or found at the target); nil for unreleased changes.
    package var tag: String?
    package var version: SemanticVersion?
    /// The previous release tag or the `--from` ref; nil means the whole history.
    package var previous: String?
    package var previousCommit: String?
    /// The previous release (nil with `--from`, or before the first release).
    package var previousRelease: ReleaseHistory.Release?
    package var targetCommit: String

    /// Resolves the range by the rules in docs/notes.md, on the project's release history:
    /// the previous release is the highest release below the release's version, on any branch
    /// (for unreleased changes, the latest release as the target's branch sees it, as `bump` counts
    /// them: `ReleaseHistory.latest(seenFrom:)`, `namedPrereleases` the `[[branch]]` rules' names); for a final release,
    /// the prereleases *of that same version* are skipped when `skipPrereleases` (notes for
    /// `v1.0.0` start at `v0.9.0`, not at `v1.0.0-rc.2`), while prereleases of other versions
    /// (`v0.0.1-test.9` before `v0.1.0`) are real bounds. Unknown refs are `GitError.unknownRef` (exit 2).
    /// `version`: the tag's, when the caller resolved the release already (`relctl release`, `linux-package`).
    /// `rule`: the `[[branch]]` rule of the branch the notes are read on.
    package static func resolve(
        git: Git, history: ReleaseHistory, skipPrereleases: Bool, tag: String?, version known: SemanticVersion? = nil,
        from: String?, to: String?, namedPrereleases: Set<String> = [], held: Set<SemanticVersion> = [],
        rule: BranchRule? = nil
    ) async throws -> NotesRange {
        var version = known
        // An existing release is read as the history reads it (`V1.2.0`, `v2.0`); a new tag strictly,
        // in the format the history spells calendar versions in.
        if let tag, version == nil {
            version =
                try history.release(named: tag)?.version ?? ReleaseIdentity.check(tag, format: history.format).version
        }
        var targetCommit: String
        if to == nil, let tag, let commit = history.tag(named: tag)?.commit {
            targetCommit = commit
        } else {
            targetCommit = try await git.rangeEnd(to ?? "HEAD")
        }
        var releaseTag = tag
        if releaseTag == nil, let best = history.releases(at: targetCommit).first {
            releaseTag = best.tag
            version = best.version
        }
        if let from {
            return NotesRange(
                tag: releaseTag, version: version, previous: from, previousCommit: try await git.commit(of: from),
                previousRelease: nil, targetCommit: targetCommit)
        }
        var previous: ReleaseHistory.Release?
        if let version {
            previous = history.previous(before: version, skippingItsPrereleases: skipPrereleases)
        } else {
            // As `bump` counts: a prerelease of another line does not bound them, and on a
            // maintenance branch (`rule`) the range's latest release does, not main's newer line.
            previous = try await history.latest(
                seenFrom: targetCommit, git: git, named: namedPrereleases, held: held)
            if case .maintenance? = rule?.line {
                previous = VersionBump.countedFrom(history: history, rule: rule, latest: previous)
            }
        }
        return NotesRange(
            tag: releaseTag, version: version, previous: previous?.tag, previousCommit: previous?.commit,
            previousRelease: previous, targetCommit: targetCommit)
    }
}
