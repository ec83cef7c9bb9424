import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlBasics

/// A walk with bases and paths finds the commits whose patch the other side carries from patch
/// ids of the commits touching the paths (`Git.patchTwins(in:)`), not from git's own
/// `--cherry-pick`, which costs up to 16 times more under paths (libc's `ctest/` across its
/// `libc-0.2` branch: 26 s against 1.6 s). git's own walk stays the reference: on generated
/// histories (whole picks, picks with more changed beside the paths, a change made alike on both
/// sides, merges, a second base, excluded commits), both give the same commits in the same order,
/// the same count on the other side, and the first base on the boundary alike.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct PatchTwinsTests {
    typealias Random = FuzzRandom

    static let pathSets: [[String]] = [
        [":(top)pkgs/a/"],
        [":(top)pkgs/a/", ":(top,exclude)pkgs/a/docs/"],
        [":(top)pkgs/b/"],
        [":(top)shared/", ":(top)pkgs/b/"],
    ]

    /// A line branched from main, each side with its own changes, and main carrying copies of
    /// some of the line's: as a script run once in a fresh repository.
    static func generate(seed: UInt64) -> String {
        var random = Random(seed: seed)
        var lines = [
            "set -e",
            "w() { mkdir -p \"$(dirname \"$1\")\"; printf '%s\\n' \"$2\" >> \"$1\"; }",
            "c() { git add -A; git commit -q --allow-empty -m \"$1\"; }",
            "w pkgs/a/src/lib.rs start; w pkgs/a/docs/guide.md start; w pkgs/b/lib.rs start; w shared/util.rs start",
            "c 'chore: start'",
            "git branch line",
        ]
        let files = [
            "pkgs/a/src/N.rs", "pkgs/a/docs/N.md", "pkgs/b/N.rs", "shared/N.rs", "pkgs/a/src/lib.rs", "README.md",
        ]
        var lineCommits = 0
        var serial = 0
        func change(_ random: inout Random) -> String {
            serial += 1
            let count = 1 + random.below(3)
            return (0..<count).map { _ in
                "w \(random.pick(files).replacingOccurrences(of: "N", with: "f\(serial)")) 'change \(serial)'"
            }.joined(separator: "; ") + "; c 'change \(serial)'"
        }
        for _ in 0..<(10 + random.below(12)) {
            if random.percent(45) {
                lineCommits += 1
                lines.append("git checkout -q line; \(change(&random)); l\(lineCommits)=$(git rev-parse HEAD)")
                continue
            }
            lines.append("git checkout -q main")
            let picked = lineCommits > 0 ? 1 + random.below(lineCommits) : 0
            switch random.below(6) {
            case 0 where picked > 0:
                lines.append("git cherry-pick -x $l\(picked) >/dev/null 2>&1 || git cherry-pick --abort")
            case 1 where picked > 0:
                // The paths' part picked, with more changed beside it: git compares the parts.
                lines.append(
                    "git cherry-pick -n $l\(picked) >/dev/null 2>&1 && { w tools/extra\(picked).sh more;"
                        + " c 'backport \(picked)'; } || git reset -q --hard")
            case 2 where picked > 0:
                // Only the part under pkgs/a, applied by hand.
                lines.append(
                    "git diff $l\(picked)~ $l\(picked) -- pkgs/a | git apply --index 2>/dev/null"
                        + " && c 'part of \(picked)' || git reset -q --hard")
            case 3:
                serial += 1
                let file = random.pick(["pkgs/a/src/same\(serial).rs", "pkgs/b/same\(serial).rs"])
                // The same change made on both sides, each its own commit.
                lines.append(
                    "w \(file) alike; c 'alike \(serial)'; git checkout -q line; w \(file) alike;"
                        + " c 'alike \(serial) too'; git checkout -q main")
            case 4:
                serial += 1
                let topic = "topic\(serial)"
                let work = change(&random)
                lines.append(
                    "git checkout -q -b \(topic); \(work); git checkout -q main;"
                        + " git merge -q --no-ff -m 'merge \(topic)' \(topic)")
            default:
                lines.append(change(&random))
            }
        }
        lines.append("git checkout -q main")
        return lines.joined(separator: "\n") + "\n"
    }

    /// git's own `--cherry-pick` walk: the target's commits in order, the other side's count, the boundaries.
    static func reference(_ range: GitLogRange, in repo: GitRepository, cherryPick: Bool = true) throws -> (
        target: [String], other: Int, boundaries: Set<String>
    ) {
        let input = range.input.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let file = repo.url.appendingPathComponent(".git/range-input")
        try Data(input.utf8).write(to: file)
        let quoted = range.arguments(cherryPick: cherryPick).map { "'" + $0 + "'" }.joined(separator: " ")
        let result = try sh(
            "git log --topo-order --format=%m%H \(quoted) < .git/range-input", in: repo.url,
            environment: GitRepository.fixedEnvironment)
        guard result.status == 0 else { throw TestFailure("git log failed: \(result)") }
        var target: [String] = []
        var other = 0
        var boundaries: Set<String> = []
        for line in result.stdout.split(separator: "\n") {
            let hash = String(line.dropFirst())
            switch line.first {
            case ">": target.append(hash)
            case "<": other += 1
            case "-": boundaries.insert(hash)
            default: throw TestFailure("an unmarked line: \(line)")
            }
        }
        return (target, other, boundaries)
    }

    /// 12 seeds here; `PATCH_TWIN_SEEDS=150` runs more by hand (150 found no difference).
    @Test func ownPatchIdsDropWhatGitsCherryPickDrops() async throws {
        var compared = 0
        var dropped = 0
        for seed in UInt64(1)...(UInt64(ProcessInfo.processInfo.environment["PATCH_TWIN_SEEDS"] ?? "12") ?? 12) {
            let repo = try GitRepository()
            let script = Self.generate(seed: seed)
            try Data(script.utf8).write(to: repo.url.appendingPathComponent(".git/generate.sh"))
            let made = try sh("bash .git/generate.sh", in: repo.url, environment: GitRepository.fixedEnvironment)
            guard made.status == 0 else { throw TestFailure("seed \(seed): the script failed: \(made)") }
            let git = Git(directory: repo.url, context: Context(workingDirectory: repo.url))
            let lineCommits = Int(try repo.git("rev-list", "--count", "main..line")) ?? 0
            var ranges: [GitLogRange] = []
            for paths in Self.pathSets {
                ranges.append(GitLogRange(target: "main", bases: ["line"], paths: paths))
                if lineCommits > 2 {
                    ranges.append(GitLogRange(target: "main", bases: ["line", "line~2"], paths: paths))
                    ranges.append(GitLogRange(target: "main", bases: ["line~1"], excluded: ["main~2"], paths: paths))
                }
            }
            for range in ranges {
                let seen = Mutex<[String]>([])
                let walk = try await git.forEachCommit(in: range) { record in seen.withLock { $0.append(record.hash) } }
                let expected = try Self.reference(range, in: repo)
                let what = "seed \(seed), \(range.description)\n\(script)"
                #expect(seen.withLock { $0 } == expected.target, "\(what)")
                #expect(walk.otherSide == expected.other, "\(what)")
                // Under paths git's boundary holds the parents of what it shows that it does not
                // show (a line's commits the paths leave out among them); what a walk's reader
                // asks of it is whether the first base is there, an ancestor of the target.
                let base = try repo.git("rev-parse", range.bases[0])
                #expect(walk.boundaries.contains(base) == expected.boundaries.contains(base), "\(what)")
                compared += 1
                let all = try Self.reference(range, in: repo, cherryPick: false)
                dropped += all.target.count + all.other - expected.target.count - expected.other
            }
        }
        // The generated histories reach what the comparison is for: ranges compared, and commits
        // git's `--cherry-pick` drops under paths.
        #expect(compared >= 60, "\(compared) ranges")
        #expect(dropped >= 10, "git dropped \(dropped) commits as patches the other side carries")
    }

    /// The case that made the walk slow and the reason for its own patch ids: a picked fix under a
    /// member's folder, with a release line's change beside it that the other side lacks.
    @Test func aPickedFixIsLeftOutAndTheLinesOwnChangeCounted() async throws {
        let repo = try GitRepository()
        try sh(
            """
            set -e
            w() { mkdir -p "$(dirname "$1")"; printf '%s\\n' "$2" >> "$1"; }
            w ctest/src/lib.rs start; w src/lib.rs start; git add -A; git commit -q -m start
            git checkout -q -b line
            w ctest/src/fix.rs fix; w CHANGELOG.md 'fix, on the line'; git add -A; git commit -q -m 'fix: the parser'
            w ctest/src/line.rs own; git add -A; git commit -q -m 'feat: the line alone'
            git checkout -q main
            w ctest/src/fix.rs fix; w NEWS.md 'fix, on main'; git add -A; git commit -q -m 'fix: the parser (picked)'
            w ctest/src/main.rs main; git add -A; git commit -q -m 'feat: main alone'
            """, in: repo.url, environment: GitRepository.fixedEnvironment)
        let git = Git(directory: repo.url, context: Context(workingDirectory: repo.url))
        let range = GitLogRange(target: "main", bases: ["line"], paths: [":(top)ctest/"])
        let seen = Mutex<[String]>([])
        let walk = try await git.forEachCommit(in: range) { record in seen.withLock { $0.append(record.subject) } }
        #expect(seen.withLock { $0 } == ["feat: main alone"])
        #expect(walk.otherSide == 1)
        #expect(try await git.patchTwins(in: range).count == 2)
        // Without paths the picks differ (their changelogs do): git's own walk keeps both.
        let whole = Mutex<[String]>([])
        _ = try await git.forEachCommit(in: GitLogRange(target: "main", bases: ["line"])) { record in
            whole.withLock { $0.append(record.subject) }
        }
        #expect(whole.withLock { $0 } == ["feat: main alone", "fix: the parser (picked)"])
    }
}
