import Foundation
import RelctlChanges
import RelctlModel
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The history rules of PRODUCT "Round 4" as properties (issue 40), checked on random histories
/// built in real git repositories: branches and merges, release branches receiving cherry-picks,
/// releases tagged on main, on release branches and on commits off the branch (k9s), odd tags
/// (`vV9.0.0`, a `v` added or removed), two-number, `V` and PEP 440 spellings, prereleases, and
/// projects in a folder of the repository. On each history:
///
/// - `bump` at every branch head proposes a version above the latest release as that branch sees
///   it (the highest final release, or a prerelease above it the branch contains) and no version a tag
///   names in any spelling (no maintenance range: releases are made on one line at a time, the
///   maintenance lines of `[[branch]]` are the next issue's);
/// - `notes` and `bump` agree on the changes, and both equal the rule computed here from the
///   generated graph itself (no git: reachability and the changes' identities);
/// - no change is listed twice across releases (by commit, and by patch for cherry-picks; one
///   release may list a change and its backport when it ships both for the first time).
///
/// A handful of seeded histories run in `make test`; `RELCTL_HISTORY_RUNS=N` runs N more from a
/// random seed (printed), `RELCTL_HISTORY_SEED=S` replays one.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct HistoryPropertyTests {
    /// SplitMix64 from one seed (the fuzzer's generator), so a failing seed replays exactly.
    typealias Random = FuzzRandom

    /// One generated commit.
    struct Node {
        var parents: [Int]
        /// The change it makes (a file of its own); nil for a merge. A cherry-pick repeats it.
        var change: Int?
        var subject: String
        var file: String?
        /// Every file in its tree.
        var files: Set<String>
        var isMerge: Bool { parents.count > 1 }
    }

    struct GeneratedRelease {
        var tag: String
        var version: SemanticVersion
        var node: Int
    }

    /// A generated history and the rules computed on it.
    struct History {
        var prefix: String
        var pep440: Bool
        var member: Bool
        var nodes: [Node] = []
        var heads: [String: Int] = [:]
        var releases: [GeneratedRelease] = []
        var otherTags: [(String, Int)] = []
        var nextChange = 1
        private var ancestry: [Int: Set<Int>] = [:]

        init(prefix: String, pep440: Bool, member: Bool) {
            self.prefix = prefix
            self.pep440 = pep440
            self.member = member
        }

        var latest: SemanticVersion? { releases.map(\.version).max() }

        mutating func commit(on branch: String, subject: String, random: inout Random) {
            let parent = heads[branch]
            let file = (member && random.percent(50) ? "member/" : "") + "c\(nextChange).txt"
            var files = parent.map { nodes[$0].files } ?? []
            files.insert(file)
            nodes.append(
                Node(parents: parent.map { [$0] } ?? [], change: nextChange, subject: subject, file: file, files: files)
            )
            nextChange += 1
            heads[branch] = nodes.count - 1
        }

        /// A copy of `node`'s change on `branch` (git cherry-pick: same patch, same message).
        mutating func pick(_ node: Int, onto branch: String) {
            guard let head = heads[branch], let file = nodes[node].file, !nodes[head].files.contains(file) else {
                return
            }
            var files = nodes[head].files
            files.insert(file)
            nodes.append(
                Node(
                    parents: [head], change: nodes[node].change, subject: nodes[node].subject, file: file, files: files)
            )
            heads[branch] = nodes.count - 1
        }

        mutating func merge(_ branch: String, into target: String) {
            guard let a = heads[target], let b = heads[branch], a != b, !ancestors(of: a).contains(b) else { return }
            nodes.append(
                Node(
                    parents: [a, b], change: nil, subject: "Merge branch '\(branch)'", file: nil,
                    files: nodes[a].files.union(nodes[b].files)))
            heads[target] = nodes.count - 1
        }

        mutating func ancestors(of node: Int) -> Set<Int> {
            if let known = ancestry[node] { return known }
            var result: Set<Int> = [node]
            for parent in nodes[node].parents { result.formUnion(ancestors(of: parent)) }
            ancestry[node] = result
            return result
        }

        /// The tag for `version`, in one of the spellings the history rules read.
        func spelling(_ version: SemanticVersion, random: inout Random) -> String {
            if pep440, version.isPrerelease, random.percent(70), let pep = PEP440Version(semver: version) {
                return prefix + pep.description
            }
            if !version.isPrerelease, version.patch == "0", random.percent(15) {
                return prefix + version.major + "." + version.minor
            }
            if prefix == "v", random.percent(10) { return "V" + version.description }
            return prefix + version.description
        }

        /// A version above every release: the prerelease counter or its final after a prerelease,
        /// else a patch, minor or major, sometimes as a first prerelease.
        func nextVersion(random: inout Random) -> SemanticVersion {
            guard let latest else { return SemanticVersion(major: 0, minor: 1, patch: 0) }
            if latest.isPrerelease {
                return random.percent(50) ? VersionBump.next(after: latest, level: .prerelease) : latest.final
            }
            let level: VersionBump.Level =
                random.percent(50) ? .patch : (random.percent(70) || Int(latest.major) ?? 0 >= 4 ? .minor : .major)
            var next = VersionBump.next(after: latest, level: level)
            if random.percent(20) {
                next.prerelease = [.alphanumeric(random.pick(["alpha", "beta", "rc"])), .numeric("1")]
            }
            return next
        }

        /// The changes of a release made at `target` after `previous`, by the rule: reachable from
        /// the target and from no release at or below the previous one tagged no later than it, less those whose change
        /// one of those releases carries and the target does not, touching the project's folder;
        /// merges left out.
        mutating func changes(to target: Int, since previous: GeneratedRelease?) -> Set<Int> {
            var right = ancestors(of: target)
            var patches: Set<Int> = []
            if let previous {
                // Lower releases tagged later (a commit's date is its index) are another line's.
                let lower = releases.filter { !(previous.version < $0.version) && $0.node <= previous.node }
                var excluded: Set<Int> = []
                for release in lower { excluded.formUnion(ancestors(of: release.node)) }
                right.subtract(excluded)
                let left = excluded.subtracting(ancestors(of: target))
                patches = Set(left.compactMap { nodes[$0].change })
            }
            return right.filter { node in
                guard let change = nodes[node].change, !patches.contains(change) else { return false }
                return !member || nodes[node].file?.hasPrefix("member/") == true
            }
        }

        /// What the notes list of `changes`: housekeeping (`chore`) is counted by bump, not listed.
        func listed(_ changes: Set<Int>) -> Set<Int> {
            changes.filter { !nodes[$0].subject.hasPrefix("chore") }
        }

        /// The graph in one line per commit, for a failure's message.
        var summary: String {
            nodes.enumerated().map { index, node in
                let tags =
                    (releases.filter { $0.node == index }.map(\.tag) + otherTags.filter { $0.1 == index }.map(\.0))
                let heads = self.heads.filter { $0.value == index }.map(\.key).sorted()
                return
                    "\(index) <- \(node.parents) change \(node.change.map(String.init) ?? "-") \(node.file ?? "") \(node.subject)"
                    + (tags.isEmpty ? "" : " tags \(tags)") + (heads.isEmpty ? "" : " heads \(heads)")
            }.joined(separator: "\n")
        }

        /// `git fast-import` input: every commit, then the branches and tags.
        func stream() -> String {
            var text = ""
            for (index, node) in nodes.enumerated() {
                let message = node.subject + "\n"
                text += "commit refs/heads/generated\nmark :\(index + 1)\n"
                text += "author Ada <ada@example.com> \(1_700_000_000 + index * 60) +0000\n"
                text += "committer Ada <ada@example.com> \(1_700_000_000 + index * 60) +0000\n"
                text += "data \(message.utf8.count)\n\(message)"
                if let first = node.parents.first { text += "from :\(first + 1)\n" }
                for other in node.parents.dropFirst() { text += "merge :\(other + 1)\n" }
                if let first = node.parents.first {
                    for file in node.files.subtracting(nodes[first].files).sorted() {
                        let content = "\(file)\n"
                        text += "M 100644 inline \(file)\ndata \(content.utf8.count)\n\(content)"
                    }
                } else {
                    for file in node.files.sorted() {
                        let content = "\(file)\n"
                        text += "M 100644 inline \(file)\ndata \(content.utf8.count)\n\(content)"
                    }
                }
                text += "\n"
            }
            for (branch, head) in heads.sorted(by: { $0.key < $1.key }) {
                text += "reset refs/heads/\(branch)\nfrom :\(head + 1)\n\n"
            }
            for release in releases { text += "reset refs/tags/\(release.tag)\nfrom :\(release.node + 1)\n\n" }
            for (tag, node) in otherTags { text += "reset refs/tags/\(tag)\nfrom :\(node + 1)\n\n" }
            return text
        }
    }

    static let subjects = ["feat: add a widget", "fix: mend a widget", "perf: faster widgets", "Update the docs"]

    static func subject(_ random: inout Random, _ index: Int) -> String {
        random.percent(6) ? "feat!: rework widgets (\(index))" : random.pick(subjects) + " (\(index))"
    }

    /// A random history: one release line at a time (main, or the release branch cut last).
    static func generate(seed: UInt64) -> History {
        var random = Random(seed: seed)
        var history = History(
            prefix: random.percent(60) ? "v" : "", pep440: random.percent(35), member: random.percent(30))
        history.commit(on: "main", subject: "chore: start", random: &random)
        var line = "main"
        var cut: [String: Int] = [:]
        var backported: Set<String> = []
        var branches = 0
        func release(at node: Int, _ history: inout History, _ random: inout Random) {
            guard !history.releases.contains(where: { $0.node == node }) else { return }
            let version = history.nextVersion(random: &random)
            history.releases.append(
                GeneratedRelease(tag: history.spelling(version, random: &random), version: version, node: node))
        }
        for step in 0..<(18 + random.below(16)) {
            let roll = random.below(100)
            switch roll {
            case 0..<34:
                history.commit(on: "main", subject: subject(&random, step), random: &random)
            case 34..<44:
                let feature = "feature/\(step)"
                history.heads[feature] = history.heads["main"]
                for index in 0...random.below(3) {
                    history.commit(on: feature, subject: subject(&random, step * 10 + index), random: &random)
                }
                history.merge(feature, into: "main")
            case 44..<58:
                if let head = history.heads[line] { release(at: head, &history, &random) }
            case 58..<64:
                branches += 1
                line = "release/\(branches)"
                history.heads[line] = history.heads["main"]
                cut[line] = history.nodes.count
            case 64..<74 where line != "main":
                // A backport: a change made on main after the cut, picked onto the release line.
                let candidates = ((cut[line] ?? 0)..<history.nodes.count).filter {
                    history.nodes[$0].change != nil
                        && history.ancestors(of: history.heads["main"] ?? 0).contains($0)
                }
                if !candidates.isEmpty {
                    history.pick(random.pick(candidates), onto: line)
                    backported.insert(line)
                }
            case 74..<78 where line != "main":
                history.commit(on: line, subject: "fix: only on \(line) (\(step))", random: &random)
            case 78..<83 where line != "main":
                // A line is merged back unless it received backports: then the original and its
                // copy would both be in main's history, where git's --cherry-pick cannot see that
                // a release already shipped the copy (docs/versions.md says so).
                if random.percent(50), !backported.contains(line) { history.merge(line, into: "main") }
                line = "main"
            case 83..<92 where line == "main":
                // k9s: the release commit is made off main and tagged there, then lands on main
                // as a merge or as a commit of its own.
                let side = "prepare/\(step)"
                history.heads[side] = history.heads["main"]
                history.commit(on: side, subject: "chore(release): prepare (\(step))", random: &random)
                if let head = history.heads[side] { release(at: head, &history, &random) }
                let landing = random.below(10)
                if landing < 5 {
                    history.merge(side, into: "main")
                } else if landing < 9, let head = history.heads[side] {
                    history.pick(head, onto: "main")
                }
            case 92..<100:
                let node = random.below(history.nodes.count)
                let odd = [
                    "vV9.0.0", "nightly", (history.prefix == "v" ? "" : "v") + "7.0.0-finalx",
                    history.prefix + "1.2.3.4",
                ]
                let tag = random.pick(odd)
                if !history.otherTags.contains(where: { $0.0 == tag }) { history.otherTags.append((tag, node)) }
            default:
                history.commit(on: line, subject: subject(&random, step), random: &random)
            }
        }
        // HEAD is never a release: the unreleased changes are compared too.
        history.commit(on: "main", subject: subject(&random, 1000), random: &random)
        return history
    }

    /// Builds `history` in a fresh repository (one `git fast-import`), the project in `member/`
    /// or at the top; returns the repository, the project's folder and each node's commit.
    static func build(_ history: History) throws -> (GitRepository, URL, [String]) {
        let repo = try GitRepository()
        let marks = repo.url.appendingPathComponent(".git/generated-marks")
        let stream = repo.url.appendingPathComponent(".git/generated-stream")
        try Data(history.stream().utf8).write(to: stream)
        let imported = try sh(
            "git fast-import --quiet --export-marks='\(marks.path)' < '\(stream.path)'", in: repo.url)
        guard imported.status == 0 else { throw TestFailure("fast-import failed: \(imported)") }
        var commits = Array(repeating: "", count: history.nodes.count)
        for line in try String(contentsOf: marks, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let mark = Int(parts[0].dropFirst()) { commits[mark - 1] = String(parts[1]) }
        }
        let root = history.member ? repo.url.appendingPathComponent("member") : repo.url
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("[project]\nname = \"widget\"\nversion = \"0.0.1\"\n".utf8).write(
            to: root.appendingPathComponent("pyproject.toml"))
        return (repo, root, commits)
    }

    static func config(_ history: History, root: URL, skipPrereleases: Bool) throws -> RelctlConfig {
        var config = RelctlConfig.defaults(root: root)
        config.isFromFile = true
        config.project.tagFormat = try TagFormat(history.prefix + "{version}", scheme: .semver)
        if history.pep440 { config.versions = [VersionSource(path: "pyproject.toml", kind: "python")] }
        config.notes.skipPrereleases = skipPrereleases
        return config
    }

    /// Checks the three properties on the history of `seed`; returns what failed.
    static func check(seed: UInt64) async throws -> [String] {
        var history = generate(seed: seed)
        let (_, root, commits) = try build(history)
        var problems: [String] = []
        let shape =
            "seed \(seed) (tags `\(history.prefix){version}`, pep440 \(history.pep440), member \(history.member))"
        let context = Context(workingDirectory: root)
        let git = Git(directory: root, context: context)
        let config = try Self.config(history, root: root, skipPrereleases: false)
        let byVersion = history.releases.sorted { $0.version < $1.version }
        guard !byVersion.isEmpty else { return [] }
        // The latest release as a branch sees it (round 5): the highest final release anywhere, or a
        // prerelease above it that the branch contains; another line's prerelease does not lift it.
        func latest(at head: Int) -> GeneratedRelease? {
            let ancestors = history.ancestors(of: head)
            return byVersion.last { !$0.version.isPrerelease || ancestors.contains($0.node) }
        }
        let read = try await ReleaseHistory.read(git: git, config: config)
        if read.releases.map(\.tag).sorted() != history.releases.map(\.tag).sorted() {
            problems.append("\(shape): releases read \(read.releases.map(\.tag)), made \(history.releases.map(\.tag))")
        }

        // Never at or below the latest release, never a version a tag names, at every branch head.
        var bumpAtHead: VersionBump?
        for (branch, head) in history.heads.sorted(by: { $0.key < $1.key }) {
            let bump = try await VersionBump.compute(git: git, config: config, target: commits[head])
            if branch == "main" { bumpAtHead = bump }
            let latest = latest(at: head)
            if latest.map({ !($0.version < bump.next) }) == true || read.taken(bump.next) != nil {
                problems.append(
                    "\(shape): bump on \(branch) proposed \(bump.next) with \(latest?.tag ?? "a tag naming it") released"
                )
            }
            if bump.previousTag != latest?.tag {
                problems.append(
                    "\(shape): bump on \(branch) counted from \(bump.previousTag ?? "nothing"), not \(latest?.tag ?? "nothing")")
            }
        }

        // Notes and bump agree on the unreleased changes, and both are the rule's.
        let head = history.heads["main"] ?? 0
        let expected = history.changes(to: head, since: latest(at: head))
        let unreleased = try await ReleaseNotesBuilder(context: context).build(config: config)
        let listed = Set(unreleased.entries.map(\.commit))
        if unreleased.previous != bumpAtHead?.previousTag || listed != Set(history.listed(expected).map { commits[$0] })
        {
            problems.append(
                "\(shape): unreleased notes since \(unreleased.previous ?? "nothing") list \(listed.count), the rule \(history.listed(expected).count)"
            )
        }
        if bumpAtHead?.commitCount != expected.count {
            problems.append(
                "\(shape): bump counted \(bumpAtHead?.commitCount ?? -1) changes, the rule \(expected.count)")
        }

        // Each release's notes are the rule's, and no change is listed twice across releases.
        var seenCommits: [String: String] = [:]
        var seenChanges: [Int: String] = [:]
        let inverse = Dictionary(uniqueKeysWithValues: commits.enumerated().map { ($1, $0) })
        for (index, release) in byVersion.enumerated() {
            let notes = try await ReleaseNotesBuilder(context: context).build(config: config, tag: release.tag)
            let previous = index == 0 ? nil : byVersion[index - 1]
            let rule = history.listed(history.changes(to: release.node, since: previous))
            let got = Set(notes.entries.map(\.commit))
            if notes.previous != previous?.tag || got != Set(rule.map { commits[$0] }) {
                problems.append(
                    "\(shape): notes of \(release.tag) since \(notes.previous ?? "nothing") list \(got.count), the rule since \(previous?.tag ?? "nothing") \(rule.count)"
                )
            }
            for commit in got {
                if let earlier = seenCommits[commit] {
                    problems.append("\(shape): \(commit) in \(earlier) and \(release.tag)")
                }
                seenCommits[commit] = release.tag
                if let node = inverse[commit], let change = history.nodes[node].change {
                    // Across releases: one release may list a change and its backport when both are new.
                    if let earlier = seenChanges[change], earlier != release.tag {
                        problems.append("\(shape): change \(change) listed in \(earlier) and \(release.tag)")
                    }
                    seenChanges[change] = release.tag
                }
            }
        }
        return problems.isEmpty ? [] : problems + ["history:\n" + history.summary]
    }

    /// Six seeded histories; `RELCTL_HISTORY_RUNS=200` adds that many from a random seed
    /// (printed), `RELCTL_HISTORY_SEED=S` replays one.
    @Test func randomHistoriesKeepTheRules() async throws {
        var seeds: [UInt64] = [1, 2, 3, 5, 8, 13]
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["RELCTL_HISTORY_SEED"].flatMap(UInt64.init) { seeds = [seed] }
        if let runs = environment["RELCTL_HISTORY_RUNS"].flatMap(Int.init), runs > 0 {
            var random = SystemRandomNumberGenerator()
            let start = random.next() % 1_000_000_000
            print("history properties: seeds \(start)..<\(start + UInt64(runs))")
            seeds += (0..<UInt64(runs)).map { start + $0 }
        }
        for seed in seeds {
            let problems = try await Self.check(seed: seed)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}
