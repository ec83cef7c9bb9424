import Foundation
import RelctlBasics

/// Which history a set of notes covers: after `previous` (exclusive) up to `targetCommit`.
package struct NotesRange: Sendable, Equatable {
    /// The release's tag (given, or found at the target); nil for unreleased changes.
    package var tag: String?
    package var version: SemanticVersion?
    /// The previous release tag or the `--from` ref; nil means the whole history.
    package var previous: String?
    package var previousCommit: String?
    package var targetCommit: String

    /// Resolves the range by the rules in docs/notes.md:
    /// the previous tag is the highest SemVer tag in the tag format that is an ancestor of the
    /// target and lower than the release; for a final release, the prereleases *of that same
    /// version* are skipped when `skipPrereleases` (notes for `v1.0.0` start at `v0.9.0`, not at
    /// `v1.0.0-rc.2`), while prereleases of other versions (`v0.0.1-test.9` before `v0.1.0`) are
    /// real bounds. Unknown refs are `GitError.unknownRef` (exit 2).
    package static func resolve(
        git: Git, format: TagFormat, skipPrereleases: Bool, tag: String?, from: String?, to: String?
    ) async throws -> NotesRange {
        var version: SemanticVersion?
        if let tag { version = try format.version(of: tag) }
        var targetRef = to ?? "HEAD"
        if to == nil, let tag, await git.localTagExists(tag) { targetRef = tag }
        let targetCommit = try await git.rangeEnd(targetRef)
        var releaseTag = tag
        if releaseTag == nil {
            let here = try await git.tagsPointing(at: targetCommit).compactMap { name in
                (try? format.version(of: name)).map { (name, $0) }
            }
            if let best = here.max(by: { $0.1 < $1.1 }) {
                releaseTag = best.0
                version = best.1
            }
        }
        if let from {
            return await NotesRange(
                tag: releaseTag, version: version, previous: from, previousCommit: try git.commit(of: from),
                targetCommit: targetCommit)
        }
        let candidates = try await git.tagsMerged(into: targetCommit).compactMap { name -> (String, SemanticVersion)? in
            guard name != releaseTag, let parsed = try? format.version(of: name) else { return nil }
            if let version {
                guard parsed < version else { return nil }
                if skipPrereleases, !version.isPrerelease, parsed.isPrerelease,
                    parsed.final.hasSamePrecedence(as: version.final)
                {
                    return nil
                }
            }
            return (name, parsed)
        }
        // Ties in precedence (build metadata) break by name so the choice is stable.
        let previous = candidates.max { $0.1 < $1.1 || ($0.1.hasSamePrecedence(as: $1.1) && $0.0 < $1.0) }
        return NotesRange(
            tag: releaseTag, version: version, previous: previous?.0,
            previousCommit: previous == nil ? nil : try await git.commit(of: previous!.0), targetCommit: targetCommit)
    }
}
