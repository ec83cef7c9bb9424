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
        var commits = commits
        return sections(consuming: &commits)
    }

    /// `sections(for:)` that empties each record's subject and body once its entry is made, so
    /// the texts of 100,000 commits are not held twice (as records and as entries; issue 31).
    /// The hashes and authors stay: entries share those strings.
    package func sections(consuming commits: inout [GitCommitRecord]) -> [NotesSection] {
        let cancelled = Self.cancelledHashes(commits)
        var breaking: [NotesEntry] = []
        var grouped: [String: [NotesEntry]] = [:]
        var other: [NotesEntry] = []
        reserve(for: commits, grouped: &grouped, other: &other)
        for index in commits.indices.reversed() {
            let commit = commits[index]
            commits[index].subject = ""
            commits[index].body = ""
            if cancelled.contains(commit.hash) { continue }
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

    /// Sizes each group's list from the subjects' headers alone, so the lists are not grown by
    /// doubling (up to twice their size held at the end). A hint: a `BREAKING CHANGE:` footer
    /// moves an entry to its own section, and that list simply grows.
    private func reserve(for commits: [GitCommitRecord], grouped: inout [String: [NotesEntry]], other: inout [NotesEntry]) {
        var counts: [String: Int] = [:]
        var others = 0
        for commit in commits where !commit.isMerge || settings.includeMerges {
            guard let header = ConventionalCommit.parseHeader(commit.subject) else {
                others += 1
                continue
            }
            if header.bang { continue }
            if let group = settings.groups.first(where: { $0.types.contains(header.type) }) {
                counts[group.title, default: 0] += 1
            } else if !Self.housekeepingTypes.contains(header.type) {
                others += 1
            }
        }
        for (title, count) in counts { grouped[title, default: []].reserveCapacity(count) }
        if settings.includeOther { other.reserveCapacity(others) }
    }

    private func entry(_ commit: GitCommitRecord, type: String, scope: String?, summary: String) -> NotesEntry {
        NotesEntry(
            commit: commit.hash, type: type, scope: scope, summary: summary, breaking: false, migrationNote: nil,
            authorName: commit.authorName, authorEmail: commit.authorEmail)
    }

    /// Removes every revert whose target is in the range, together with that target. Newest first,
    /// so a revert of a revert cancels the revert and the original change stays.
    package static func cancellingReverts(_ commits: [GitCommitRecord]) -> [GitCommitRecord] {
        let cancelled = cancelledHashes(commits)
        return cancelled.isEmpty ? commits : commits.filter { !cancelled.contains($0.hash) }
    }

    /// The hashes `cancellingReverts` removes. Most ranges hold no revert at all: then no list or
    /// set of every hash is made.
    package static func cancelledHashes(_ commits: [GitCommitRecord]) -> Set<String> {
        guard commits.contains(where: { looksLikeRevert($0.subject) }) else { return [] }
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
        return cancelled
    }

    private static func looksLikeRevert(_ subject: String) -> Bool {
        // Seven characters lowercased are a small string: no allocation per commit.
        let start = subject.prefix(7).lowercased()
        return subject.hasPrefix("Revert \"") || subject.hasPrefix("Reapply \"") || start.hasPrefix("revert:")
            || start.hasPrefix("revert(")
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
