import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[[branch]]` rules (the contract's "Branches: prerelease lines and maintenance lines", issue
/// 42): the next version on a prerelease branch and on a maintenance branch, as `bump` and `plan`
/// compute them on generated repositories, and what the default branch keeps.
/// Every commit changes a file: empty commits share one patch id, which git's `--cherry-pick`
/// (the rule that drops what a release already shipped) would read as the same change.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct BranchRulesCLITests {
    static let config = """
        [project]
        name = "demo"

        [[branch]]
        name = "next"
        prerelease = "rc"

        [[branch]]
        name = "release/5.*"
        range = "5.x"

        """

    static func plan(
        _ repository: GitRepository, environment: [String: String] = [:]
    ) throws -> MemberPlanDocument.Member {
        let (result, members) = try MemberPlanDocument.run(in: repository.url, environment: environment)
        #expect(result.status == 0, "\(result)")
        return try #require(members.first)
    }

    static func bump(_ repository: GitRepository, environment: [String: String] = [:]) throws -> RunResult {
        try relctl(["bump"], in: repository.url, environment: environment)
    }

    /// release-please#2641's case: a `feat` after `2.0.0-rc.1` (itself due to a breaking change)
    /// is `2.0.0-rc.2`, not `2.1.0-rc.1`; with nothing new since the rc there is nothing to plan.
    @Test func aPrereleaseLineCountsFromTheLastFinalRelease() throws {
        let repository = try GitRepository()
        try repository.commit("feat: first", files: ["relctl.toml": Self.config])
        try repository.git("tag", "-a", "v1.0.0", "-m", "v1.0.0")
        try repository.git("checkout", "-q", "-b", "next")
        try repository.commit("feat!: a new api", files: ["changes/1.txt": "feat!: a new api\n"])

        let first = try Self.plan(repository)
        #expect(first.next == "2.0.0-rc.1" && first.tag == "v2.0.0-rc.1", "\(first)")
        #expect(first.branch == "next" && first.reason == "breaking" && first.current == "1.0.0", "\(first)")
        try repository.git("tag", "-a", "v2.0.0-rc.1", "-m", "v2.0.0-rc.1")

        let nothing = try Self.plan(repository)
        #expect(nothing.next == nil && nothing.commits == 0, "nothing new since the rc: \(nothing)")

        try repository.commit("feat: one more thing", files: ["changes/2.txt": "feat: one more thing\n"])
        let second = try Self.bump(repository)
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.0.0-rc.2", "\(second)")
        #expect(second.stderr.contains("branch rule `next` (prerelease `rc`)"), "bump says which rule: \(second)")
        let planned = try Self.plan(repository)
        #expect(planned.next == "2.0.0-rc.2" && planned.commits == 1, "\(planned)")
        try repository.git("tag", "-a", "v2.0.0-rc.2", "-m", "v2.0.0-rc.2")

        // The default branch has no rule: it stays above every release anywhere, rcs included.
        try repository.git("checkout", "-q", "main")
        try repository.commit("fix: on main", files: ["changes/3.txt": "fix: on main\n"])
        let main = try Self.plan(repository)
        #expect(main.branch == nil, "\(main)")
        let next = try #require(main.next)
        #expect(try Self.isAbove(next, "2.0.0-rc.2", in: repository), "main's \(next) is above v2.0.0-rc.2")
    }

    /// On `release/5.x` the latest release is the highest of 5.x, although 6.0.0 shipped from
    /// main; a breaking change there is exit 1 naming its commit.
    @Test func aMaintenanceLineStaysInItsRange() throws {
        let repository = try GitRepository()
        try repository.commit("feat: five", files: ["relctl.toml": Self.config])
        try repository.git("tag", "-a", "v5.0.0", "-m", "v5.0.0")
        try repository.commit("feat!: six", files: ["changes/4.txt": "feat!: six\n"])
        try repository.git("tag", "-a", "v6.0.0", "-m", "v6.0.0")
        try repository.git("checkout", "-q", "-b", "release/5.x", "v5.0.0")
        try repository.commit("fix: a backport", files: ["changes/5.txt": "fix: a backport\n"])

        let planned = try Self.plan(repository)
        #expect(planned.current == "5.0.0" && planned.next == "5.0.1", "\(planned)")
        #expect(planned.branch == "release/5.*" && planned.reason == "fix", "\(planned)")
        try repository.git("tag", "-a", "v5.0.1", "-m", "v5.0.1")

        try repository.commit("feat: a small feature", files: ["changes/6.txt": "feat: a small feature\n"])
        #expect(try Self.plan(repository).next == "5.1.0")

        let breaking = try repository.commit("feat!: breaks 5.x", files: ["changes/7.txt": "feat!: breaks 5.x\n"])
        let refused = try Self.bump(repository)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains("5.x") && refused.stderr.contains(String(breaking.prefix(12)))
                && refused.stderr.contains("breaks 5.x"), "names the range and the commit: \(refused)")

        // A detached checkout in CI: the branch comes from the CI's variables.
        try repository.git("reset", "-q", "--hard", "HEAD~1")
        try repository.git("checkout", "-q", "--detach")
        let detached = try Self.plan(repository, environment: ["CI_COMMIT_BRANCH": "release/5.x"])
        #expect(detached.next == "5.1.0" && detached.branch == "release/5.*", "\(detached)")
        let github = try Self.plan(
            repository, environment: ["GITHUB_REF_TYPE": "branch", "GITHUB_REF_NAME": "release/5.x"])
        #expect(github.next == "5.1.0" && github.branch == "release/5.*", "\(github)")
    }

    /// setuptools' `maint/75.3`: `notes` of the unreleased changes on a maintenance branch start
    /// where `bump` counts from, the range's latest release, not main's newer line (they said "No
    /// notable changes" since `v6.0.0`, with a compare link from it).
    @Test func unreleasedNotesOnAMaintenanceLineStartAtTheRangesLatestRelease() throws {
        let repository = try GitRepository()
        try repository.commit("feat: five", files: ["relctl.toml": Self.config])
        try repository.git("tag", "-a", "v5.0.0", "-m", "v5.0.0")
        try repository.commit("feat!: six", files: ["changes/4.txt": "feat!: six\n"])
        try repository.git("tag", "-a", "v6.0.0", "-m", "v6.0.0")
        try repository.git("checkout", "-q", "-b", "release/5.x", "v5.0.0")
        try repository.commit("fix: a backport", files: ["changes/5.txt": "fix: a backport\n"])

        let notes = try relctl(["notes", "--json"], in: repository.url)
        #expect(notes.status == 0, "\(notes)")
        #expect(notes.stdout.contains("\"previous\" : \"v5.0.0\""), "\(notes)")
        #expect(notes.stdout.contains("a backport"), "\(notes)")
        #expect(try Self.bump(repository).stdout == "5.0.1\n")
        // On main the newest line is still the bound.
        try repository.git("checkout", "-q", "main")
        try repository.commit("fix: on main", files: ["changes/6.txt": "fix: on main\n"])
        let onMain = try relctl(["notes", "--json"], in: repository.url)
        #expect(onMain.stdout.contains("\"previous\" : \"v6.0.0\""), "\(onMain)")
    }

    /// Every problem of every [[branch]] table is listed at once, exit 2.
    @Test func badBranchTablesAreListedTogether() throws {
        let repository = try GitRepository()
        let config = """
            [project]
            name = "demo"

            [[branch]]
            name = "both"
            prerelease = "rc"
            range = "5.x"

            [[branch]]
            name = "neither"

            [[branch]]
            name = "bad-range"
            range = "5"

            [[branch]]
            name = "numeric"
            prerelease = "7"

            [[branch]]
            prerelease = "beta"

            """
        try repository.commit("chore: start", files: ["relctl.toml": config])
        let checked = try relctl(["check"], in: repository.url)
        #expect(checked.status == 2, "\(checked)")
        for expected in [
            "not both", "`neither` needs `prerelease`", "`5` must be a major or minor line",
            "`7` is a number", "needs `name`",
        ] {
            #expect(checked.stderr.contains(expected), "\(expected): \(checked)")
        }
    }

    /// Issue 54: one root `[[branch]]` serves every member of a workspace, and a glob without
    /// `range` takes the range from the branch's name (`1.x` → 1.x), as semantic-release does; a
    /// member's own rule of the same name wins for that member. Before, the root rule without
    /// `range` was refused (exit 2) and a maintenance line needed a `range` in every member.
    @Test func aRootBranchRuleServesEveryMemberWithTheRangeFromTheBranchName() throws {
        let repository = try GitRepository()
        try repository.commit(
            "feat: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"crates/*\"]\n\n[[branch]]\nname = \"[0-9]*.x\"\n",
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"1.2.0\"\n",
                "crates/cli/Cargo.toml": "[package]\nname = \"cli\"\nversion = \"1.0.0\"\n",
                "crates/cli/relctl.toml":
                    "[project]\nname = \"cli\"\n\n[[branch]]\nname = \"[0-9]*.x\"\nrange = \"1.0.x\"\n",
            ])
        try repository.git("tag", "-a", "core-v1.2.0", "-m", "core 1.2.0")
        try repository.git("tag", "-a", "cli-v1.0.0", "-m", "cli 1.0.0")
        try repository.git("branch", "1.x")
        try repository.commit(
            "feat!: two",
            files: [
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"2.0.0\"\n",
                "crates/cli/Cargo.toml": "[package]\nname = \"cli\"\nversion = \"2.0.0\"\n",
            ])
        try repository.git("tag", "-a", "core-v2.0.0", "-m", "core 2.0.0")
        try repository.git("tag", "-a", "cli-v2.0.0", "-m", "cli 2.0.0")

        try repository.git("checkout", "-q", "1.x")
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        let core = try #require(members.first { $0.name == "core" }, "\(result)")
        #expect(core.next == "1.3.0" && core.tag == "core-v1.3.0" && core.branch == "[0-9]*.x", "\(core)")

        // cli's own rule (range 1.0.x) wins over the root's 1.x: a feature would leave it.
        try repository.commit("feat: cli gets a flag", files: ["crates/cli/src/main.rs": "fn main() {}\n"])
        let bumped = try Self.bump(repository)
        #expect(bumped.status == 1 && bumped.stderr.contains("1.0.x"), "\(bumped)")
    }

    /// aiohttp's `3.13` branch: feature fragments are backported with their main-line type
    /// (`CHANGES/11633.feature.rst`) and the branch ships them in 3.13.x patches. `plan` exited 1
    /// blaming "a manifest" (none was configured); the range is the maintainers' call, so the
    /// fragment gives what fits inside it, and says so. A `feat:` commit itself still leaves it.
    @Test func aFragmentBackportedToAMaintenanceLineStaysInsideItsRange() throws {
        let repository = try GitRepository()
        try repository.commit(
            "Release 3.13.0",
            files: [
                "relctl.toml":
                    "[project]\nname = \"aiohttp\"\n\n[versioning]\nfragments = \"towncrier\"\n\n[[branch]]\nname = \"3.13\"\nrange = \"3.13.x\"\n",
                "pyproject.toml": "[tool.towncrier]\ndirectory = \"CHANGES/\"\n",
                "CHANGES/.gitignore": "!.gitignore\n",
            ])
        try repository.git("tag", "-a", "v3.13.0", "-m", "v3.13.0")
        try repository.git("branch", "3.13")
        try repository.commit("Release 3.14.0", files: ["aiohttp/web.py": "web\n"])
        try repository.git("tag", "-a", "v3.14.0", "-m", "v3.14.0")
        try repository.git("checkout", "-q", "3.13")
        try repository.commit(
            "[PR #11633/backport][3.13] Add a cookie jar filter",
            files: ["aiohttp/cookiejar.py": "jar\n", "CHANGES/11633.feature.rst": "Added a cookie jar filter.\n"])
        let member = try Self.plan(repository)
        #expect(member.next == "3.13.1" && member.branch == "3.13", "\(member)")
        let bumped = try Self.bump(repository)
        #expect(bumped.status == 0 && bumped.stderr.contains("inside the range"), "\(bumped)")

        try repository.commit("feat: a new client option", files: ["aiohttp/client.py": "client\n"])
        let refused = try Self.bump(repository)
        #expect(refused.status == 1 && refused.stderr.contains("a new client option"), "\(refused)")
    }

    /// Whether `version` is above `other` by SemVer precedence (the test asks git, which sorts
    /// tags as versions, so no rule of relctl's decides it).
    static func isAbove(_ version: String, _ other: String, in repository: GitRepository) throws -> Bool {
        let scratch = try GitRepository()
        try scratch.commit("chore: start")
        try scratch.git("tag", "v" + version)
        try scratch.git("tag", "v" + other)
        let sorted = try scratch.git("-c", "versionsort.suffix=-", "tag", "--sort=-v:refname")
        return sorted.split(separator: "\n").first.map(String.init) == "v" + version && version != other
    }
}
