import Foundation
import RelctlBasics
import RelctlModel

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
        var collector = NotesCollector(classifier: self)
        for commit in commits { collector.add(commit) }
        return collector.finish().sections
    }

    /// One commit's place in the notes, before reverts are taken into account.
    fileprivate enum Placement {
        case breaking(NotesEntry)
        case group(title: String, NotesEntry)
        case other(NotesEntry)
        case left
    }

    fileprivate func place(_ commit: GitCommitRecord) -> Placement {
        if commit.isMerge && !settings.includeMerges { return .left }
        guard let conventional = ConventionalCommit(subject: commit.subject, body: commit.body) else {
            // The release commit itself (`release v1.28.0 (#1547)`, `v1.11.0`) is not a change.
            return settings.includeOther && !Self.namesARelease(commit.subject)
                ? .other(entry(commit, type: "other", scope: nil, summary: commit.subject)) : .left
        }
        var item = entry(commit, type: conventional.type, scope: conventional.scope, summary: conventional.description)
        if conventional.isBreaking {
            item.breaking = true
            item.migrationNote = conventional.breakingNote
            return .breaking(item)
        }
        if let group = settings.groups.first(where: { $0.types.contains(conventional.type) }) {
            return .group(title: group.title, item)
        }
        // Housekeeping types (chore, ci, test, build, style) are left out. A `revert:` naming
        // nothing in this range, or a type nobody grouped (`security:`, `Notes:`), may be news
        // for users: list it rather than lose it.
        guard !Self.housekeepingTypes.contains(conventional.type), settings.includeOther,
            !Self.namesARelease(conventional.description)
        else { return .left }
        item.showsType = true
        return .other(item)
    }

    /// Words a release commit's subject starts with, before the version (`Release v1.2.3`,
    /// `Bump version to 1.2.3`, `Prepare for release 1.2.3`).
    static let releaseWords: Set<String> = ["release", "releasing", "prepare", "bump", "cut", "tag"]
    static let releaseFillers: Set<String> = ["version", "to", "for", "release", "of", "the", "v"]

    /// Whether a subject says only that a version is released: a version alone (`v1.11.0`), or
    /// release words and one version (`release v1.28.0 (#1547)`, zap's `exp: Release v0.3.0`).
    /// `Bump golang.org/x/net to 0.17.0` names a dependency, not a release.
    package static func namesARelease(_ subject: String) -> Bool {
        var words = subject.split(separator: " ", omittingEmptySubsequences: true).map { $0.lowercased() }
        if let last = words.last, last.hasPrefix("(#"), last.hasSuffix(")") { words.removeLast() }
        guard let version = words.last, isVersionWord(version) else { return false }
        let before = words.dropLast()
        guard let first = before.first else { return true }
        return releaseWords.contains(first) && before.dropFirst().allSatisfy { releaseFillers.contains($0) }
    }

    private static func isVersionWord(_ word: String) -> Bool {
        var text = Substring(word)
        while let last = text.last, ".,:;".contains(last) { text = text.dropLast() }
        if text.first == "v" { text = text.dropFirst() }
        let core = text.prefix { $0.isNumber || $0 == "." }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...4).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return false }
        let rest = text.dropFirst(core.count)
        return rest.isEmpty || ((rest.first == "-" || rest.first == "+") && rest.count > 1)
    }

    private func entry(_ commit: GitCommitRecord, type: String, scope: String?, summary: String) -> NotesEntry {
        NotesEntry(
            commit: commit.hash, type: type, scope: scope, summary: summary, breaking: false, migrationNote: nil,
            authorName: commit.authorName, authorEmail: commit.authorEmail)
    }

    /// Removes every revert whose target is in the range, together with that target. Newest first,
    /// so a revert of a revert cancels the revert and the original change stays.
    package static func cancellingReverts(_ commits: [GitCommitRecord]) -> [GitCommitRecord] {
        var ledger = RevertLedger()
        for commit in commits { ledger.add(commit) }
        let cancelled = ledger.cancelled()
        return cancelled.isEmpty ? commits : commits.filter { !cancelled.contains(CommitName($0.hash)) }
    }

    /// The pull requests a squash-merged revert cites: `Reverts OWNER/REPO#N` or `Reverts #N`
    /// lines of its body (what GitHub's revert button writes).
    package static func revertedPullRequests(of commit: GitCommitRecord) -> [Int] {
        commit.body.split(separator: "\n").compactMap { line -> Int? in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("Reverts "), let hash = text.lastIndex(of: "#") else { return nil }
            let repository = text.dropFirst("Reverts ".count)[..<hash]
            guard repository.isEmpty || (repository.contains("/") && !repository.contains(" ")) else { return nil }
            return Int(text[text.index(after: hash)...])
        }
    }

    /// The pull request a squash merge names at the end of its subject: `… (#13152)`.
    package static func pullRequestNumber(of subject: String) -> Int? {
        guard subject.hasSuffix(")"), let open = subject.range(of: "(#", options: .backwards) else { return nil }
        return Int(subject[open.upperBound..<subject.index(before: subject.endIndex)])
    }

    package static func looksLikeRevert(_ subject: String) -> Bool {
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

/// The revert rule, fed the range's commits newest first: every commit's name (inline, 40 bytes)
/// and, for the few commits that look like reverts, the names they cite. What cancels what is
/// decided at the end, exactly as a pass over the whole list would: a revert may cite a commit
/// that comes later in the log.
package struct RevertLedger: Sendable {
    private var names: [CommitName] = []
    private var reverts: [(index: Int, cited: [String])] = []
    /// GitHub's revert button squash-merged: `Reverts OWNER/REPO#13152` cites a pull request,
    /// and the commit that merged it ends its subject with `(#13152)`. Only the numbers a revert
    /// cites are looked for (a revert comes before what it reverts, newest first).
    private var citedRequests: [Int: [Int]] = [:]
    private var requestCommits: [Int: CommitName] = [:]

    package init() {}

    package mutating func add(_ commit: GitCommitRecord) {
        if CommitClassifier.looksLikeRevert(commit.subject) {
            let cited = CommitClassifier.revertedHashes(of: commit)
            if !cited.isEmpty { reverts.append((names.count, cited)) }
            let requests = cited.isEmpty ? CommitClassifier.revertedPullRequests(of: commit) : []
            for number in requests { citedRequests[number, default: []].append(names.count) }
            if !requests.isEmpty { reverts.append((names.count, [])) }
        }
        if !citedRequests.isEmpty, let number = CommitClassifier.pullRequestNumber(of: commit.subject),
            citedRequests[number] != nil, requestCommits[number] == nil
        {
            requestCommits[number] = CommitName(commit.hash)
        }
        names.append(CommitName(commit.hash))
    }

    /// The commits to leave out: each revert whose cited commit is in the range (and not already
    /// cancelled by a newer revert), with that commit. Most ranges hold no revert: then nothing
    /// is indexed.
    package func cancelled() -> Set<CommitName> {
        guard !reverts.isEmpty else { return [] }
        // Names in text order, each with its place in the log, so a cited prefix finds the
        // newest commit it names by binary search.
        let order = names.indices.sorted { (names[$0], $0) < (names[$1], $1) }
        func newest(citedBy prefix: String) -> CommitName? {
            let key = CommitName(prefix)
            var low = 0, high = order.count
            while low < high {
                let middle = (low + high) / 2
                if names[order[middle]] < key { low = middle + 1 } else { high = middle }
            }
            var best: Int?
            while low < order.count, names[order[low]].hasPrefix(prefix) {
                best = min(best ?? order[low], order[low])
                low += 1
            }
            return best.map { names[$0] }
        }
        var requestsOf: [Int: [CommitName]] = [:]
        for (number, reverters) in citedRequests {
            guard let target = requestCommits[number] else { continue }
            for index in reverters { requestsOf[index, default: []].append(target) }
        }
        var cancelled: Set<CommitName> = []
        for revert in reverts where !cancelled.contains(names[revert.index]) {
            let own = names[revert.index]
            let live = (revert.cited.compactMap(newest(citedBy:)) + (requestsOf[revert.index] ?? [])).filter {
                $0 != own && !cancelled.contains($0)
            }
            guard !live.isEmpty else { continue }
            cancelled.formUnion(live)
            cancelled.insert(own)
        }
        return cancelled
    }
}

/// Builds the notes' sections and contributors from `git log` records as they stream in (newest
/// first), keeping only the entries: a record's texts are dropped once its entry is made (issue
/// 31). Reverts are settled in `finish`, by removing the cancelled entries in place.
package struct NotesCollector: Sendable {
    package struct Result: Sendable {
        package var sections: [NotesSection]
        package var contributors: [NotesContributor]
        /// Commits read, merges included.
        package var count: Int
        /// The committer time of the record named `timeOf`, when it was among them.
        package var time: Int?
    }

    private let classifier: CommitClassifier
    private let timeOf: String?
    private var breaking: [NotesEntry] = []
    private var grouped: [String: [NotesEntry]] = [:]
    private var other: [NotesEntry] = []
    private var ledger = RevertLedger()
    private var authors = ContributorList()
    private var count = 0
    private var time: Int?

    package init(classifier: CommitClassifier, timeOf: String? = nil) {
        self.classifier = classifier
        self.timeOf = timeOf
    }

    package mutating func add(_ commit: GitCommitRecord) {
        count += 1
        if time == nil, commit.hash == timeOf { time = commit.time }
        ledger.add(commit)
        authors.add(commit)
        switch classifier.place(commit) {
        case .breaking(let entry): breaking.append(entry)
        case .group(let title, let entry): grouped[title, default: []].append(entry)
        case .other(let entry): other.append(entry)
        case .left: break
        }
    }

    /// The sections, entries oldest first, in the configured order.
    package mutating func finish() -> Result {
        let cancelled = ledger.cancelled()
        func settle(_ entries: inout [NotesEntry]) {
            if !cancelled.isEmpty { entries.removeAll { cancelled.contains($0.commitName) } }
            entries.reverse()
        }
        var sections: [NotesSection] = []
        settle(&breaking)
        if !breaking.isEmpty { sections.append(NotesSection(title: ReleaseNotes.breakingTitle, entries: breaking)) }
        breaking = []
        var seenTitles: Set<String> = []
        for group in classifier.settings.groups where seenTitles.insert(group.title).inserted {
            guard var entries = grouped.removeValue(forKey: group.title) else { continue }
            settle(&entries)
            if !entries.isEmpty { sections.append(NotesSection(title: group.title, entries: entries)) }
        }
        settle(&other)
        if !other.isEmpty { sections.append(NotesSection(title: ReleaseNotes.otherTitle, entries: other)) }
        other = []
        return Result(sections: sections, contributors: authors.contributors, count: count, time: time)
    }
}

/// Authors of non-merge commits, names and emails already mapped by `.mailmap`. One person is one
/// name: the same name under several emails (work and personal addresses, a GitHub noreply one)
/// is listed once, with the email of their earliest commit in the range; names compare
/// case-insensitively, with surrounding spaces ignored. Sorted by name.
package struct ContributorList: Sendable {
    private var byName: [String: NotesContributor] = [:]

    package init() {}

    /// Commits come newest first: each later (older) commit of a name replaces the email.
    package mutating func add(_ commit: GitCommitRecord) {
        guard !commit.isMerge else { return }
        let name = commit.authorName.trimmingCharacters(in: .whitespaces)
        let key = name.isEmpty ? "<" + commit.authorEmail.lowercased() + ">" : name.lowercased()
        byName[key] = NotesContributor(name: name.isEmpty ? commit.authorEmail : name, email: commit.authorEmail)
    }

    package var contributors: [NotesContributor] {
        byName.values.sorted {
            let (a, b) = ($0.name.lowercased(), $1.name.lowercased())
            return a != b ? a < b : ($0.name, $0.email) < ($1.name, $1.email)
        }
    }
}
