import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The history rules of a `[workspace]` as properties (issue 42), on random workspaces built in
/// real git repositories: two to four members (sometimes a root member `.` holding the others,
/// sometimes a member with an `exclude` glob), commits touching one member, several, a nested
/// member or only files of nobody, and member tags made at random points. On each:
///
/// - `relctl plan` gives every member exactly the commits that touch its own paths since its
///   latest release (another member's folder inside it, and its excluded files, are not its),
///   the reason of the highest change among them, and a next version above its latest release
///   that no tag names;
/// - `bump --write` then `release --pending` tag exactly the members with a next version, with
///   the tags the plan named, and a second `release --pending` finds nothing.
///
/// A handful of seeded workspaces run in `make test`; `RELCTL_WORKSPACE_RUNS=N` runs N more from
/// a random seed (printed), `RELCTL_WORKSPACE_SEED=S` replays one.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct WorkspacePropertyTests {
    /// SplitMix64 from one seed (the fuzzer's generator), so a failing seed replays exactly.
    typealias Random = FuzzRandom

    struct Member {
        var name: String
        /// Relative to the workspace root; "." for the root member.
        var path: String
        var version: (Int, Int, Int)
        /// Files under `docs/` of the member are excluded from its changes.
        var excludesDocs: Bool
        /// Changes since its latest tag: (level 0 patch, 1 minor, 2 major) of each commit counted.
        var counted: [Int] = []
        var tagged: [String] = []

        var versionText: String { "\(version.0).\(version.1).\(version.2)" }
        var manifest: String { (path == "." ? "" : path + "/") + "Cargo.toml" }
    }

    static func check(seed: UInt64) throws -> [String] {
        var random = Random(seed: seed)
        var problems: [String] = []
        let repository = try GitRepository()
        let withRoot = random.percent(30)
        let count = 2 + random.below(3)
        var members = (0..<count).map { index in
            Member(
                name: "m\(index)", path: "crates/m\(index)",
                version: (random.below(3), random.below(5), random.below(5)), excludesDocs: random.percent(40))
        }
        if withRoot {
            members.append(Member(name: "root", path: ".", version: (0, 1, 0), excludesDocs: random.percent(50)))
        }
        func cargo(_ member: Member) -> String {
            "[package]\nname = \"\(member.name)\"\nversion = \"\(member.versionText)\"\n"
        }
        var files: [String: String] = [".gitignore": "dist/\n"]
        let memberList = (withRoot ? ["\".\""] : []) + ["\"crates/*\""]
        var top = "[workspace]\nmembers = [\(memberList.joined(separator: ", "))]\n"
        if withRoot {
            let root = members.last!
            top =
                "[project]\nname = \"root\"\ntag-format = \"root-v{version}\"\n"
                + (root.excludesDocs ? "exclude = [\"docs/*\"]\n" : "") + "\n" + top
        }
        files["relctl.toml"] = top
        for member in members {
            files[member.manifest] = cargo(member)
            if member.path != ".", member.excludesDocs {
                files[member.path + "/relctl.toml"] = "[project]\nname = \"\(member.name)\"\nexclude = [\"docs/*\"]\n"
            }
        }
        try repository.commit("chore: start", files: files)
        for index in members.indices {
            let tag = "\(members[index].name)-v\(members[index].versionText)"
            try repository.git("tag", tag)
            members[index].tagged.append(tag)
        }

        // Random commits; each member records what it should count.
        for step in 0..<(8 + random.below(10)) {
            let level = random.pick([0, 0, 0, 1, 1, 2])
            let subject = ["fix: change \(step)", "feat: change \(step)", "feat!: change \(step)"][level]
            var touched: [String: String] = [:]
            for _ in 0..<(1 + random.below(2)) {
                let kind = random.below(10)
                if kind < 1 {
                    touched["notes/n\(step).txt"] = "\(step)\n"  // nobody's, unless the root member
                } else {
                    let member = random.pick(members)
                    let folder = member.path == "." ? "" : member.path + "/"
                    let docs = random.percent(25)
                    touched[folder + (docs ? "docs/d\(step).md" : "src/f\(step).rs")] = "\(step)\n"
                }
            }
            try repository.commit(subject, files: touched)
            for index in members.indices where counts(members[index], touched: Array(touched.keys), all: members) {
                members[index].counted.append(level)
            }
            // Sometimes a member releases here (its manifest raised and tagged, as after a release).
            if random.percent(20) {
                let index = random.below(members.count)
                members[index].version.2 += 1 + random.below(2)
                try repository.commit(
                    "chore: release \(members[index].name)", files: [members[index].manifest: cargo(members[index])])
                let tag = "\(members[index].name)-v\(members[index].versionText)"
                try repository.git("tag", tag)
                members[index].tagged.append(tag)
                // The release commit touched its manifest: after the tag, nothing is counted yet.
                members[index].counted = []
                for other in members.indices where other != index {
                    if counts(
                        members[other], touched: [members[index].manifest], all: members)
                    {
                        members[other].counted.append(0)
                    }
                }
            }
        }

        let (result, planned) = try MemberPlanDocument.run(in: repository.url)
        guard result.status == 0 else { return ["seed \(seed): plan failed: \(result)"] }
        let allTags = Set(try repository.git("tag", "--list").split(separator: "\n").map(String.init))
        for member in members {
            guard let plan = planned.first(where: { $0.name == member.name }) else {
                problems.append("seed \(seed): \(member.name) is missing from the plan")
                continue
            }
            if plan.path != member.path { problems.append("seed \(seed): \(member.name) path \(plan.path)") }
            if plan.current != member.versionText {
                problems.append("seed \(seed): \(member.name) current \(plan.current ?? "nil") ≠ \(member.versionText)")
            }
            if plan.commits != member.counted.count {
                problems.append(
                    "seed \(seed): \(member.name) counts \(plan.commits) commits, the generated history \(member.counted.count)"
                )
            }
            let expectedReason =
                member.counted.isEmpty ? "none" : ["fix", "feat", "breaking"][member.counted.max()!]
            if plan.reason != expectedReason {
                problems.append("seed \(seed): \(member.name) reason \(plan.reason) ≠ \(expectedReason)")
            }
            if let tag = plan.tag {
                if allTags.contains(tag) { problems.append("seed \(seed): \(member.name) proposes \(tag), a tag") }
                if let next = plan.next, !above(next, member.versionText) {
                    problems.append("seed \(seed): \(member.name) next \(next) is not above \(member.versionText)")
                }
            } else if !member.counted.isEmpty {
                problems.append("seed \(seed): \(member.name) has changes but no next version")
            }
        }
        guard problems.isEmpty else { return problems }

        // Written and released: exactly the planned tags, then nothing pending.
        let bumped = try relctl(["bump", "--write", "-q"], in: repository.url)
        guard bumped.status == 0 else { return ["seed \(seed): bump --write failed: \(bumped)"] }
        if try !repository.git("status", "--porcelain").isEmpty { try repository.commit("chore: release") }
        let released = try relctl(["release", "--pending", "-q"], in: repository.url)
        guard released.status == 0 else { return ["seed \(seed): release --pending failed: \(released)"] }
        let after = Set(try repository.git("tag", "--list").split(separator: "\n").map(String.init))
        let made = after.subtracting(allTags)
        let expected = Set(planned.compactMap(\.tag))
        if made != expected {
            problems.append(
                "seed \(seed): release --pending made \(made.sorted()), the plan named \(expected.sorted())")
        }
        let again = try relctl(["release", "--pending"], in: repository.url)
        if again.status != 0 || !again.stderr.contains("nothing pending") {
            problems.append("seed \(seed): a second release --pending was not a no-op: \(again)")
        }
        return problems
    }

    /// Whether a commit touching `touched` is a change of `member`: inside its folder, not inside
    /// another member's folder nested in it, not an excluded `docs/` file.
    static func counts(_ member: Member, touched: [String], all: [Member]) -> Bool {
        let folder = member.path == "." ? "" : member.path + "/"
        return touched.contains { file in
            guard file.hasPrefix(folder) else { return false }
            let inside = String(file.dropFirst(folder.count))
            if member.excludesDocs, inside.hasPrefix("docs/"), !inside.dropFirst(5).contains("/") { return false }
            return !all.contains { other in
                other.path != member.path && other.path != "." && (folder.isEmpty || other.path.hasPrefix(folder))
                    && file.hasPrefix(other.path + "/")
            }
        }
    }

    static func above(_ next: String, _ current: String) -> Bool {
        let a = next.split(separator: ".").compactMap { Int($0) }
        let b = current.split(separator: ".").compactMap { Int($0) }
        return a.lexicographicallyPrecedes(b) == false && a != b
    }

    @Test func randomWorkspacesKeepTheRules() throws {
        var seeds: [UInt64] = [1, 2, 3, 5, 8, 13]
        let environment = ProcessInfo.processInfo.environment
        if let replay = environment["RELCTL_WORKSPACE_SEED"].flatMap(UInt64.init) { seeds = [replay] }
        if let runs = environment["RELCTL_WORKSPACE_RUNS"].flatMap(Int.init) {
            let start = UInt64.random(in: 1...UInt64(Int32.max))
            print("WorkspacePropertyTests: \(runs) runs from seed \(start)")
            seeds += (0..<UInt64(runs)).map { start &+ $0 }
        }
        for seed in seeds {
            let problems = try Self.check(seed: seed)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}
