import Foundation
import RelctlBasics

/// Turns the commits of a range into notes sections: drops merges (unless configured), cancels
/// revert pairs, parses Conventional Commits and sorts entries into the configured groups.
package struct CommitClassifier: Sendable {
    package var settings: NotesSettings

    package init(settings: NotesSettings) {
        self.settings = settings
    }

    /// Conventional types that never reach the notes unless a group names them.
    package static let housekeepingTypes: Set<String> = ["chore", "ci", "test", "tests", "build", "style"]

    /// `commits` newest first (as `git log` gives them); entries come out oldest first.
    package func sections(for commits: [GitCommitRecord]) -> [NotesSection] {
        let kept = Self.cancellingReverts(commits)
        var breaking: [NotesEntry] = []
        var grouped: [String: [NotesEntry]] = [:]
        var other: [NotesEntry] = []
        for commit in kept.reversed() {
            if commit.isMerge && !settings.includeMerges { continue }
            guard let conventional = ConventionalCommit(subject: commit.subject, body: commit.body) else {
                if settings.includeOther {
                    other.append(entry(commit, type: "other", scope: nil, summary: commit.subject))
                }
                continue
            }
            var item = entry(
                commit, type: conventional.type, scope: conventional.scope, summary: conventional.description)
            if conventional.isBreaking {
                item.breaking = true
                item.migrationNote = conventional.breakingNote
                breaking.append(item)
            } else if let group = settings.groups.first(where: { $0.types.contains(conventional.type) }) {
                grouped[group.title, default: []].append(item)
            } else if !Self.housekeepingTypes.contains(conventional.type) {
                // A `revert:` naming nothing in this range, or a type nobody grouped (`security:`,
                // `Notes:`), may be news for users: list it rather than lose it.
                if settings.includeOther {
                    item.showsType = true
                    other.append(item)
                }
            }
            // Housekeeping types (chore, ci, test, build, style) are left out.
        }
        var sections: [NotesSection] = []
        if !breaking.isEmpty { sections.append(NotesSection(title: ReleaseNotes.breakingTitle, entries: breaking)) }
        var seenTitles: Set<String> = []
        for group in settings.groups where seenTitles.insert(group.title).inserted {
            if let entries = grouped[group.title], !entries.isEmpty {
                sections.append(NotesSection(title: group.title, entries: entries))
            }
        }
        if !other.isEmpty { sections.append(NotesSection(title: ReleaseNotes.otherTitle, entries: other)) }
        return sections
    }

    private func entry(_ commit: GitCommitRecord, type: String, scope: String?, summary: String) -> NotesEntry {
        NotesEntry(
            commit: commit.hash, type: type, scope: scope, summary: summary, breaking: false, migrationNote: nil,
            authorName: commit.authorName, authorEmail: commit.authorEmail)
    }

    /// Removes every revert whose target is in the range, together with that target. Newest first,
    /// so a revert of a revert cancels the revert and the original change stays.
    package static func cancellingReverts(_ commits: [GitCommitRecord]) -> [GitCommitRecord] {
        let hashes = commits.map(\.hash)
        let inRange = Set(hashes)
        var cancelled: Set<String> = []
        for commit in commits where !cancelled.contains(commit.hash) {
            let named = revertedHashes(of: commit)
            guard !named.isEmpty else { continue }
            var resolved: [String] = []
            for prefix in named {
                if inRange.contains(prefix) { resolved.append(prefix); continue }
                if prefix.count >= 7, let full = hashes.first(where: { $0.hasPrefix(prefix) }) { resolved.append(full) }
            }
            let live = resolved.filter { $0 != commit.hash && !cancelled.contains($0) }
            guard !live.isEmpty else { continue }
            cancelled.formUnion(live)
            cancelled.insert(commit.hash)
        }
        return cancelled.isEmpty ? commits : commits.filter { !cancelled.contains($0.hash) }
    }

    /// The commits a revert names: git's `This reverts commit X.` line (in `Revert "…"` and
    /// `Reapply "…"` commits), and for a conventional `revert:` commit also hashes in `Refs:`
    /// footers (the spec's example).
    package static func revertedHashes(of commit: GitCommitRecord) -> [String] {
        // Git 2.43+ titles the revert of a revert `Reapply "…"`.
        let isGitRevert = commit.subject.hasPrefix("Revert \"") || commit.subject.hasPrefix("Reapply \"")
        let isConventionalRevert =
            commit.subject.lowercased().hasPrefix("revert:") || commit.subject.lowercased().hasPrefix("revert(")
        guard isGitRevert || isConventionalRevert else { return [] }
        var found: [String] = []
        var search = commit.body[...]
        while let range = search.range(of: "This reverts commit ") {
            let hex = search[range.upperBound...].prefix(while: \.isHexDigit)
            if hex.count >= 7 { found.append(hex.lowercased()) }
            search = search[range.upperBound...]
        }
        if isConventionalRevert, let parsed = ConventionalCommit(subject: commit.subject, body: commit.body) {
            for footer in parsed.footers where footer.token.lowercased() == "refs" {
                for word in footer.value.split(whereSeparator: { $0 == "," || $0.isWhitespace })
                where word.count >= 7 && word.allSatisfy(\.isHexDigit) {
                    found.append(word.lowercased())
                }
            }
        }
        return found
    }
}
