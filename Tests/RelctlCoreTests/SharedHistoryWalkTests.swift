import Foundation
import RelctlChanges
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The one-pass history read of a workspace (issue 42 "Scale") against the per-member walks it
/// replaces, which stay the reference: on many generated workspaces (members with include and
/// exclude globs, feature branches merged, reverts of commits and of merges, release branches
/// merged back or not, with backports, `[[branch]]` prerelease and maintenance lines), the plan
/// from one walk equals the plan from a `git log` per member for every member, and every answer
/// the shared walk gives equals the member's own walk.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct SharedHistoryWalkTests {
    /// SplitMix64 from one seed (the fuzzer's generator), so a failing seed replays exactly.
    typealias Random = FuzzRandom

    static let excludes = [
        "docs/*", "docs", "**/*.md", "gen/**", "*.txt", "src/**/gen*.rs", "?.md", "docs/**/deep*", "src/sub",
    ]
    static let memberFiles = [
        "src/N.rs", "src/sub/N.rs", "src/sub/genN.rs", "docs/N.md", "docs/deep/N.md", "gen/N.rs", "N.txt", "N.md",
    ]
    static let otherFiles = ["shared/N.rs", "README-N.md", "pkgs/N.txt", "tools/N.sh"]

    /// A generated workspace as one shell script (run once in a fresh repository), the branches
    /// whose heads are planned, and what it holds, for a failure's message.
    static func generate(seed: UInt64) -> (script: String, branches: [String], summary: String) {
        var random = Random(seed: seed)
        let names = Array(["a", "b", "c", "d", "e"].prefix(3 + random.below(3)))
        var lines = [
            "set -e",
            "c() { n=$1; s=$2; b=$3; shift 3; for f in \"$@\"; do mkdir -p \"$(dirname \"$f\")\"; echo \"$n\" > \"$f\"; done;"
                + " git add -A; if [ -n \"$b\" ]; then git commit -q --allow-empty -m \"$s\" -m \"$b\"; else git commit -q --allow-empty -m \"$s\"; fi;"
                + " eval \"h$n=\\$(git rev-parse HEAD)\"; }",
        ]
        var summary: [String] = []
        var workspace = "[workspace]\nmembers = [\"pkgs/*\"]\n"
        if random.percent(30) { workspace += "\n[[branch]]\nname = \"main\"\nprerelease = \"rc\"\n" }
        if random.percent(40) { workspace += "\n[[branch]]\nname = \"release/*\"\nrange = \"0.x\"\n" }
        lines.append("printf '%s' '\(workspace)' > relctl.toml")
        summary.append(workspace)
        for name in names {
            lines.append(
                "mkdir -p pkgs/\(name) && printf '[package]\\nname = \"\(name)\"\\nversion = \"0.1.0\"\\n' > pkgs/\(name)/Cargo.toml"
            )
            if random.percent(60) {
                var own = "[project]\nname = \"\(name)\"\n"
                let excluded = (0..<(1 + random.below(2))).map { _ in random.pick(excludes) }
                own += "exclude = [\(excluded.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
                if random.percent(25) { own += "include = [\"\(random.pick(["src/**", "../../shared/*"]))\"]\n" }
                lines.append("printf '%s' '\(own)' > pkgs/\(name)/relctl.toml")
                summary.append("pkgs/\(name)/relctl.toml: \(own)")
            }
        }
        var serial = 0
        var versions: [String: (Int, Int)] = [:]
        var subjects: [Int: String] = [:]
        var merges: [Int] = []
        var line = "main"
        var branches: Set<String> = ["main"]
        var releaseBranches = 0
        lines.append("c 0 'chore: start' ''")
        func commit(_ random: inout Random) {
            serial += 1
            let n = serial
            var files: [String] = []
            for _ in 0...random.below(3) {
                if random.percent(80) {
                    files.append(
                        "pkgs/\(random.pick(names))/"
                            + random.pick(memberFiles).replacingOccurrences(of: "N", with: "f\(n)"))
                } else {
                    files.append(random.pick(otherFiles).replacingOccurrences(of: "N", with: "f\(n)"))
                }
            }
            if random.percent(5) { files = [] }
            var subject = random.pick([
                "feat: add \(n)", "fix: mend \(n)", "chore: tidy \(n)", "docs: say \(n)", "Update \(n)",
            ])
            if random.percent(5) { subject = "feat!: rework \(n)" }
            var body = ""
            if random.percent(12), let target = subjects.keys.sorted().randomElement(using: &random) {
                subject = "Revert \"\(subjects[target]!)\""
                body = "This reverts commit $h\(target)."
            } else if random.percent(2), let target = merges.randomElement(using: &random) {
                subject = "Revert \"\(subjects[target] ?? "merge")\""
                body = "This reverts commit $h\(target), reversing changes."
            }
            subjects[n] = subject
            lines.append(
                "c \(n) '\(subject.replacingOccurrences(of: "'", with: ""))' \"\(body)\" \(files.joined(separator: " "))"
            )
        }
        var unmerged: [String] = []
        func mergeBack(_ branch: String) {
            serial += 1
            lines.append(
                "git merge -q --no-ff -m \"Merge branch '\(branch)'\" \(branch); h\(serial)=$(git rev-parse HEAD)")
            subjects[serial] = "Merge branch \(branch)"
            merges.append(serial)
        }
        func tag(_ random: inout Random) {
            let name = random.pick(names)
            var (minor, patch) = versions[name] ?? (0, -1)
            if random.percent(50) { (minor, patch) = (minor + 1, 0) } else { patch += 1 }
            versions[name] = (minor, patch)
            let rc = random.percent(15) ? "-rc.1" : ""
            lines.append("git tag \(name)-v0.\(minor).\(patch)\(rc)")
        }
        for step in 0..<(25 + random.below(20)) {
            switch random.below(100) {
            case 0..<45: commit(&random)
            case 45..<55 where line == "main":
                let feature = "feature/\(step)"
                lines.append("git checkout -q -b \(feature)")
                for _ in 0...random.below(2) { commit(&random) }
                lines.append("git checkout -q main")
                serial += 1
                let subject =
                    random.percent(3) ? "Revert \"\(subjects[serial - 1] ?? "x")\"" : "Merge branch '\(feature)'"
                let body = subject.hasPrefix("Revert") ? " -m \"This reverts commit $h\(serial - 1).\"" : ""
                lines.append(
                    "git merge -q --no-ff -m '\(subject.replacingOccurrences(of: "'", with: ""))'\(body) \(feature); h\(serial)=$(git rev-parse HEAD)"
                )
                subjects[serial] = subject
                merges.append(serial)
            case 55..<72: tag(&random)
            case 72..<78 where line == "main":
                releaseBranches += 1
                line = "release/\(releaseBranches)"
                branches.insert(line)
                lines.append("git checkout -q -b \(line)")
            case 78..<84 where line != "main":
                if let picked = subjects.keys.sorted().filter({ !merges.contains($0) }).randomElement(using: &random) {
                    lines.append(
                        "git cherry-pick -x $h\(picked) >/dev/null 2>&1 || git cherry-pick --abort 2>/dev/null || true")
                }
            case 84..<92 where line != "main":
                lines.append("git checkout -q main")
                // Merged back now, later (main's releases in between do not contain its), or never.
                let roll = random.below(5)
                if roll < 1 { mergeBack(line) } else if roll < 4 { unmerged.append(line) }
                line = "main"
            case 92..<96 where line == "main" && !unmerged.isEmpty:
                mergeBack(unmerged.removeFirst())
            default: commit(&random)
            }
        }
        if line != "main" { lines.append("git checkout -q main") }
        commit(&random)
        summary.append(lines.joined(separator: "\n"))
        return (lines.joined(separator: "\n") + "\n", branches.sorted(), summary.joined(separator: "\n"))
    }

    static func build(seed: UInt64) throws -> (GitRepository, [String], String) {
        let (script, branches, summary) = generate(seed: seed)
        let repo = try GitRepository()
        try Data(script.utf8).write(to: repo.url.appendingPathComponent(".git/generate.sh"))
        let made = try sh("bash .git/generate.sh", in: repo.url, environment: GitRepository.fixedEnvironment)
        guard made.status == 0 else { throw TestFailure("seed \(seed): the generator failed: \(made)\n\(summary)") }
        return (repo, branches, summary)
    }

    static func plan(_ config: RelctlConfig, git: Git, oneWalk: Bool) async -> Result<[MemberPlan], any Error> {
        do {
            return .success(try await VersionPlan.compute(config: config, git: git, oneWalk: oneWalk))
        } catch {
            return .failure(error)
        }
    }

    /// What a member's plan says, for comparing (the error's text when planning fails).
    static func describe(_ plans: Result<[MemberPlan], any Error>) -> [String] {
        switch plans {
        case .failure(let error): return ["error: \(error)"]
        case .success(let plans):
            return plans.map { plan in
                "\(plan.name) next \(plan.nextText ?? "-") tag \(plan.tag ?? "-") reason \(plan.reason) commits \(plan.bump.commitCount) level \(plan.bump.changeLevel) notes \(plan.bump.notes)"
            }
        }
    }

    /// Twenty seeded workspaces; `RELCTL_WORKSPACE_RUNS=N` adds N from a random seed (printed),
    /// `RELCTL_WORKSPACE_SEED=S` replays one.
    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["RELCTL_WORKSPACE_SEED"].flatMap(UInt64.init) { return [seed] }
        var seeds = Array(UInt64(1)...20)
        if let runs = environment["RELCTL_WORKSPACE_RUNS"].flatMap(Int.init) {
            let start = UInt64.random(in: 1_000...UInt64(UInt32.max))
            print("RELCTL_WORKSPACE_RUNS from seed \(start)")
            seeds += (0..<UInt64(runs)).map { start + $0 }
        }
        return seeds
    }

    /// The seeds run four at a time (each its own repository): one after the other, this test
    /// was the last of `make test` by minutes (issue 62).
    @Test func onePassPlanEqualsThePerMemberWalks() async throws {
        var shared = 0
        var own = 0
        var reasons: [String: Int] = [:]
        var acrossLines = 0
        try await withThrowingTaskGroup(of: (Int, Int, [String: Int], Int).self) { group in
            var pending = Self.seeds[...]
            func next() -> Bool {
                guard let seed = pending.popFirst() else { return false }
                group.addTask { try await Self.check(seed: seed) }
                return true
            }
            for _ in 0..<4 where next() {}
            while let (seedShared, seedOwn, seedReasons, seedAcross) = try await group.next() {
                shared += seedShared
                acrossLines += seedAcross
                own += seedOwn
                reasons.merge(seedReasons, uniquingKeysWith: +)
                _ = next()
            }
        }
        print("shared walk answered \(shared) requests (\(acrossLines) across an unmerged earlier line), \(own) walked their own: \(reasons)")
        // Both ways were taken: the shared walk answered most requests, and the ones it cannot
        // (release lines not merged back, reverted merges, includes outside the folder) walked their own.
        #expect(shared > own && reasons.count >= 4, "shared \(shared), own walks \(own): \(reasons)")
        // Requests with a release line the target does not contain below their release were
        // answered by the shared walk too, and matched their own `--cherry-pick` walks.
        #expect(acrossLines > 0, "no request with an unmerged earlier line was answered by the shared walk")
    }

    /// One seed's workspace: (requests the shared walk answered, requests walked on their own, why).
    static func check(seed: UInt64) async throws -> (Int, Int, [String: Int], Int) {
        var acrossLines = 0
        var shared = 0
        var own = 0
        var reasons: [String: Int] = [:]
        do {
            let (repo, branches, summary) = try Self.build(seed: seed)
            for branch in branches {
                try repo.git("checkout", "-q", branch)
                let context = Context(workingDirectory: repo.url)
                let config = try ConfigLoader.load(path: nil, context: context)
                let git = Git(directory: repo.url, context: context)
                let got = await Self.plan(config, git: git, oneWalk: true)
                let expected = await Self.plan(config, git: git, oneWalk: false)
                #expect(
                    Self.describe(got) == Self.describe(expected),
                    "seed \(seed) on \(branch): the one-pass plan differs from the per-member walks\n\(summary)")

                // Every answer of the shared walk is the member's own walk's.
                let members = try WorkspaceMembers.resolve(config)
                let tags = try await git.tagList()
                var requests: [SharedHistoryWalk.Request] = []
                for member in members {
                    let history = ReleaseHistory(
                        tags: tags, format: ReleaseHistory.format(of: member.config), paths: member.history)
                    var starts: [ReleaseHistory.Release?] = [nil]
                    starts += history.releases.map { Optional($0) }
                    for since in starts {
                        requests.append(SharedHistoryWalk.Request(history: history, since: since))
                    }
                    // Path sets a member cannot have in this layout: the whole repository (every
                    // commit, even an empty one) and the top with an exclude.
                    for paths in [HistoryPaths.wholeRepository, HistoryPaths(folder: "", exclude: ["pkgs/a/**"])] {
                        let other = ReleaseHistory(
                            tags: tags, format: ReleaseHistory.format(of: member.config), paths: paths)
                        requests.append(SharedHistoryWalk.Request(history: other, since: other.latest))
                    }
                }
                let head = try await git.rangeEnd("HEAD")
                let notMerged = try await git.tagNames(notMergedInto: head)
                let answers = try await SharedHistoryWalk.run(git: git, target: head, requests: requests)
                for (request, answer) in zip(requests, answers) {
                    guard case .walked(let collector, let walk) = answer else {
                        own += 1
                        if case .ownWalk(let reason) = answer {
                            let kind =
                                reason.hasPrefix("release commit")
                                ? "a release not in the target's history"
                                : reason.hasPrefix("commit ") ? "a commit that may carry an unmerged line's patch" : reason
                            reasons[kind, default: 0] += 1
                        }
                        continue
                    }
                    shared += 1
                    if let since = request.since, !notMerged.contains(since.tag),
                        request.history.earlierLines(below: since).contains(where: { notMerged.contains($0.tag) })
                    {
                        acrossLines += 1
                    }
                    var reference = BumpCollector()
                    let referenceWalk = try await Self.ownWalk(request, git: git, target: head, into: &reference)
                    let what =
                        "seed \(seed) on \(branch), paths \(request.history.paths), since \(request.since?.tag ?? "nothing")"
                    #expect(collector.finish() == reference.finish(), "\(what)\n\(summary)")
                    #expect(
                        collector.raisingCommit(at: .minor)?.name == reference.raisingCommit(at: .minor)?.name,
                        "\(what)\n\(summary)")
                    #expect(
                        collector.raisingCommit(at: .major)?.name == reference.raisingCommit(at: .major)?.name,
                        "\(what)\n\(summary)")
                    if referenceWalk.previousIsAncestor != nil {
                        #expect(walk.previousIsAncestor == referenceWalk.previousIsAncestor, "\(what)")
                    }
                }
            }
        }
        return (shared, own, reasons, acrossLines)
    }

    static func ownWalk(
        _ request: SharedHistoryWalk.Request, git: Git, target: String, into collector: inout BumpCollector
    ) async throws -> ReleaseHistory.Walk {
        let collected = Mutex(BumpCollector())
        let walk = try await request.history.changes(in: git, to: target, since: request.since) { commit in
            collected.withLock { $0.add(commit) }
        }
        collector = collected.withLock { $0 }
        return walk
    }

    /// Runs a shell script that builds a workspace in `repo`; its configuration and git.
    static func run(_ script: String, in repo: GitRepository) throws -> (RelctlConfig, Git) {
        try Data(script.utf8).write(to: repo.url.appendingPathComponent(".git/generate.sh"))
        let made = try sh("bash .git/generate.sh", in: repo.url, environment: GitRepository.fixedEnvironment)
        guard made.status == 0 else { throw TestFailure("the script failed: \(made)") }
        let context = Context(workingDirectory: repo.url)
        return (try ConfigLoader.load(path: nil, context: context), Git(directory: repo.url, context: context))
    }

    /// A maintenance line never merged back, released before main's release: the shared walk
    /// stops where the line meets main and answers the member whose changes share no files with
    /// the line's commits; the member whose commit on main may carry a line commit's patch (a fix
    /// picked from the line) walks its own, and `--cherry-pick` leaves that commit out.
    @Test func anUnmergedEarlierLineIsAnsweredUnlessAPatchMayBeShared() async throws {
        let repo = try GitRepository()
        let script = """
            set -e
            c() { s=$1; shift; for f in "$@"; do mkdir -p "$(dirname "$f")"; echo "$s" > "$f"; done; git add -A; git commit -q -m "$s"; }
            printf '[workspace]\nmembers = ["pkgs/*"]\n' > relctl.toml
            for m in a b; do mkdir -p pkgs/$m && printf '[package]\nname = "%s"\nversion = "0.1.0"\n' $m > pkgs/$m/Cargo.toml; done
            c 'chore: start' pkgs/a/start.rs pkgs/b/start.rs
            git checkout -q -b release/1
            c 'fix: guard the parser' pkgs/a/parse.rs
            c 'fix: b on the line' pkgs/b/line.rs
            git tag a-v0.1.1 && git tag b-v0.1.1
            git checkout -q main
            c 'feat: a api' pkgs/a/api.rs
            c 'feat: b api' pkgs/b/api.rs
            git tag a-v0.2.0 && git tag b-v0.2.0
            git cherry-pick release/1~1 >/dev/null
            c 'fix: b after' pkgs/b/after.rs
            c 'chore: a tidy' pkgs/a/tidy.rs
            """
        let (config, git) = try Self.run(script, in: repo)
        let plans = await Self.plan(config, git: git, oneWalk: true)
        #expect(Self.describe(plans) == Self.describe(await Self.plan(config, git: git, oneWalk: false)))
        // The picked fix is the line's patch: a's changes since 0.2.0 are the tidy alone.
        #expect(try plans.get().map(\.bump.commitCount) == [1, 1], "\(Self.describe(plans))")
        let tags = try await git.tagList()
        var requests: [SharedHistoryWalk.Request] = []
        for member in try WorkspaceMembers.resolve(config) {
            let history = ReleaseHistory(tags: tags, format: ReleaseHistory.format(of: member.config), paths: member.history)
            #expect(history.latest.map { history.earlierLines(below: $0).map(\.tag) } == ["\(member.name)-v0.1.1"])
            requests.append(SharedHistoryWalk.Request(history: history, since: history.latest))
        }
        let answers = try await SharedHistoryWalk.run(git: git, target: try await git.rangeEnd("HEAD"), requests: requests)
        guard case .ownWalk(let reason) = answers[0] else {
            Issue.record("a's commit picked from the line was answered by the shared walk: \(answers[0])")
            return
        }
        #expect(reason.contains("release line the target does not contain"), "\(reason)")
        guard case .walked(let collector, let walk) = answers[1] else {
            Issue.record("b was not answered by the shared walk: \(answers[1])")
            return
        }
        #expect(collector.finish() == (.patch, 1) && walk.previousIsAncestor == true)
    }

    /// A release line merged back after main's next release: main's latest release does not
    /// contain the line's release, so the line's commits stop the walk too (its own walk's second
    /// base), and the shared walk answers it without a walk of its own.
    @Test func anOlderReleaseMergedLaterStillStopsTheSharedWalk() async throws {
        let repo = try GitRepository()
        let script = """
            set -e
            c() { s=$1; shift; for f in "$@"; do mkdir -p "$(dirname "$f")"; echo "$s" > "$f"; done; git add -A; git commit -q -m "$s"; }
            printf '[workspace]\nmembers = ["pkgs/*"]\n' > relctl.toml
            mkdir -p pkgs/a && printf '[package]\nname = "a"\nversion = "0.1.0"\n' > pkgs/a/Cargo.toml
            c 'chore: start' pkgs/a/start.rs
            git checkout -q -b release/1
            c 'feat: on the line' pkgs/a/line.rs
            git tag a-v0.1.0
            git checkout -q main
            c 'fix: on main' pkgs/a/main.rs
            git tag a-v0.2.0
            git merge -q --no-ff -m 'Merge the line' release/1
            c 'fix: after both' pkgs/a/after.rs
            """
        let (config, git) = try Self.run(script, in: repo)
        let plans = try await VersionPlan.compute(config: config, git: git)
        #expect(
            plans.map(\.nextText) == ["0.2.1"] && plans.map(\.bump.commitCount) == [1],
            "\(Self.describe(.success(plans)))")
        let member = try #require(try WorkspaceMembers.resolve(config).first)
        let history = ReleaseHistory(
            tags: try await git.tagList(), format: ReleaseHistory.format(of: member.config), paths: member.history)
        let answers = try await SharedHistoryWalk.run(
            git: git, target: try await git.rangeEnd("HEAD"),
            requests: [SharedHistoryWalk.Request(history: history, since: history.latest)])
        guard case .walked(let collector, _) = answers.first else {
            Issue.record("the shared walk did not answer: \(answers)")
            return
        }
        #expect(collector.finish() == (.patch, 1))
    }

    /// The exclude globs match what git's `:(top,glob,exclude)` pathspecs keep out of a walk.
    @Test func excludeGlobsMatchAsGitPathspecsDo() async throws {
        let repo = try GitRepository()
        let files = [
            "a/docs/r.md", "a/docs/x/y.md", "a/docs2/z", "a/b/docs/q", "a/top.md", "a/lib.rs", "a/x.md",
            "a/src/sub/gen1.rs", "a/src/gen2.rs", "a/src/sub/deeper/gen3.rs",
        ]
        for file in files {
            try FileManager.default.createDirectory(
                at: repo.url.appendingPathComponent(file).deletingLastPathComponent(), withIntermediateDirectories: true
            )
            try Data(file.utf8).write(to: repo.url.appendingPathComponent(file))
            try repo.git("add", "-A")
            try repo.git("commit", "-q", "-m", file)
        }
        let globs =
            Self.excludes + [
                "docs/", "**/docs", "doc*", "*/docs", "docs/x", "?ocs/*", "**", "*", "b/**/q", "docs/**/y.md",
                "x/y.md", "src/*/gen*.rs", "**/gen?.rs", "a**b", "docs/**",
            ]
        for glob in globs {
            let kept = try repo.git(
                "log", "--format=%s", "--full-history", "--", ":(top)a/", ":(top,glob,exclude)a/\(glob)"
            )
            .split(separator: "\n").map(String.init)
            let matcher = try #require(PathspecGlob(folder: "a", glob: glob))
            let ours = files.filter { !matcher.matches($0) }
            #expect(Set(ours) == Set(kept), "exclude `\(glob)`: git keeps \(kept.sorted()), relctl \(ours.sorted())")
        }
    }
}
