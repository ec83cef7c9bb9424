import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What round 15 left (session 74): the intent go-zero's goctl, python-genai, docker-py,
/// openai-agents-js and python-telegram-bot record, each on a generated repository of the shape
/// relctl read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound15LeftoversCLITests {
    static func plan(_ repo: GitRepository) throws -> (row: [String: Any], warnings: [String]) {
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]] ?? []
        let warnings = try BacktestFindingsCLITests.field(plan.stdout, "warnings") as? [String] ?? []
        return (members.first ?? [:], warnings)
    }

    /// goctl (go-zero's `tools/goctl`): `internal/version/version.go` holds `const BuildVersion`,
    /// which each release commit bumps, prereleases too; before `tools/goctl/v1.8.3` it already said
    /// `1.8.3`, the final of the latest `1.8.3-beta`. init listed nothing, and plan continued the
    /// prerelease (`1.8.3-beta.1`).
    @Test func aGoVersionConstantInInternalVersionNamingThePrereleasesFinalIsRead() throws {
        let repo = try GitRepository()
        func constant(_ version: String) -> String {
            "package version\n\n// BuildVersion is the version of the tool.\nconst BuildVersion = \"\(version)\"\n"
        }
        try repo.commit("chore: start", files: ["go.mod": "module example.com/tool\n", "main.go": "package main\n"])
        for version in ["1.0.0", "1.0.1", "1.1.0-beta"] {
            try repo.commit("fix: release \(version)", files: ["internal/version/version.go": constant(version)])
            try repo.git("tag", "-a", "v\(version)", "-m", "v\(version)")
        }
        try repo.commit(
            "chore: prepare 1.1.0", files: ["main.go": "package main // x\n", "internal/version/version.go": constant("1.1.0")])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("path = \"internal/version/version.go\""), "\(config)")
        #expect(config.contains("BuildVersion"), "\(config)")
        let (row, _) = try Self.plan(repo)
        #expect(row["next"] as? String == "1.1.0", "\(row)")
        #expect(row["tag"] as? String == "v1.1.0", "\(row)")
    }

    /// A constant in `internal/version/` holding another version than the release is something
    /// else's (a protocol's, a schema's): not listed.
    @Test func aGoConstantInInternalVersionHoldingAnotherVersionIsNotListed() throws {
        let repo = try GitRepository()
        try repo.commit(
            "chore: start",
            files: [
                "go.mod": "module example.com/tool\n", "main.go": "package main\n",
                "internal/version/version.go": "package version\n\nconst Schema = \"3.1.0\"\n",
            ])
        try repo.git("tag", "-a", "v1.0.0", "-m", "v1.0.0")
        try repo.commit("fix: a bug", files: ["main.go": "package main // x\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(!config.contains("path = \"internal/version/version.go\""), "\(config)")
        #expect(config.contains("# internal/version/version.go holds `Schema = \"3.1.0\"`"), "said, not listed: \(config)")
        #expect(try Self.plan(repo).row["next"] as? String == "1.0.1")
    }

    /// python-genai: v2.1.0 … v2.12.0 under release-please, a feat in every range, so a run of
    /// twelve minors said nothing beyond its commits; init wrote `cadence = "minor"` and the
    /// fix-only 2.12.1 was proposed as 2.13.0.
    @Test func aLongRunOfMinorsEachExplainedByItsFeatsIsNoCadence() throws {
        let repo = try Self.minorRun(unexplainedStep: nil)
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(!config.contains("cadence"), "\(config)")
        #expect(try Self.plan(repo).row["next"] as? String == "1.12.1")
    }

    /// otelhttp's shape stays: in a long run where one minor held only fixes, the minors are the
    /// project's rule.
    @Test func aLongRunOfMinorsWithAFixOnlyMinorKeepsItsCadence() throws {
        let repo = try Self.minorRun(unexplainedStep: 5)
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("cadence = \"minor\""), "\(config)")
        #expect(try Self.plan(repo).row["next"] as? String == "1.13.0")
    }

    /// v1.0.0, v1.0.1, then v1.1.0 … v1.12.0 each after a `feat:` (a `fix:` at `unexplainedStep`),
    /// then a fix.
    static func minorRun(unexplainedStep: Int?) throws -> GitRepository {
        let repo = try GitRepository()
        func project(_ version: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"demo\"\nversion = \"\(version)\"\n"]
        }
        try repo.commit("chore(main): release 1.0.0", files: project("1.0.0"))
        try repo.git("tag", "-a", "v1.0.0", "-m", "v1.0.0")
        try repo.commit("fix: first fix", files: ["a.py": "0\n"])
        try repo.commit("chore(main): release 1.0.1", files: project("1.0.1"))
        try repo.git("tag", "-a", "v1.0.1", "-m", "v1.0.1")
        for minor in 1...12 {
            let type = minor == unexplainedStep ? "fix" : "feat"
            try repo.commit("\(type): change \(minor)", files: ["a.py": "\(minor)\n"])
            try repo.commit("chore(main): release 1.\(minor).0", files: project("1.\(minor).0"))
            try repo.git("tag", "-a", "v1.\(minor).0", "-m", "v1.\(minor).0")
        }
        try repo.commit("fix: a fix", files: ["a.py": "z\n"])
        return repo
    }

    /// docker-py keeps its changelog at `docs/change-log.md`, its next version's setext heading
    /// written before the release (`7.1.0` / `-----`, above `7.0.0`): an untyped history read as a
    /// patch.
    @Test func aChangelogAtDocsChangeLogNamesTheNextVersion() throws {
        let repo = try GitRepository()
        try repo.commit(
            "Release 7.0.0",
            files: [
                "pyproject.toml": "[project]\nname = \"docker\"\nversion = \"7.0.0\"\n",
                "docs/change-log.md": "Changelog\n==========\n\n7.0.0\n-----\n\n### Bugfixes\n- a fix\n",
            ])
        try repo.git("tag", "-a", "7.0.0", "-m", "7.0.0")
        try repo.commit(
            "Added 7.1.0 changelog",
            files: [
                "docs/change-log.md":
                    "Changelog\n==========\n\n7.1.0\n-----\n\n### Features\n- a feature\n\n7.0.0\n-----\n\n### Bugfixes\n- a fix\n"
            ])
        try repo.commit("Drop a dependency", files: ["docker/a.py": "x = 1\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("changelog = \"docs/change-log.md\""), "\(config)")
        #expect(try Self.plan(repo).row["next"] as? String == "7.1.0")
    }

    /// openai-agents-js tags one series (`v0.14.3`) over five npm packages that init lists as
    /// `[[version]]`, and its changesets name those packages (`'@openai/agents-core': patch`), not
    /// the private root: they were read as naming nothing, and a `feat(core):` gave a minor.
    @Test func changesetsNamingTheListedPackagesOfOneSeriesDecide() throws {
        let repo = try GitRepository()
        func packages(_ version: String) -> [String: String] {
            [
                "packages/a/package.json": "{\"name\":\"@d/a\",\"version\":\"\(version)\"}\n",
                "packages/b/package.json": "{\"name\":\"@d/b\",\"version\":\"\(version)\",\"dependencies\":{\"@d/a\":\"\(version)\"}}\n",
            ]
        }
        try repo.commit(
            "chore: start",
            files: [
                "package.json": "{\"private\":true,\"name\":\"demo-js\",\"version\":\"0.0.1\",\"workspaces\":[\"packages/*\"]}\n",
                ".changeset/config.json": "{\"baseBranch\":\"main\"}\n",
            ])
        for (index, version) in ["0.1.0", "0.1.1", "0.1.2"].enumerated() {
            try repo.commit("fix: change \(index)", files: ["packages/a/x.js": "\(index)\n"])
            try repo.commit("chore: update versions", files: packages(version))
            try repo.git("tag", "-a", "v\(version)", "-m", "v\(version)")
        }
        try repo.commit(
            "feat(core): three",
            files: [
                "packages/a/x.js": "3\n",
                ".changeset/three.md": "---\n'@d/a': patch\n'@d/b': patch\n---\n\nfix: three\n",
            ])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("fragments = \"changesets\""), "\(config)")
        #expect(config.contains("path = \"packages/a/package.json\""), "\(config)")
        let (row, warnings) = try Self.plan(repo)
        #expect(row["next"] as? String == "0.1.3", "\(row)")
        #expect(warnings.contains { $0.contains(".changeset/three.md calls for a patch") }, "\(warnings)")
    }

    /// python-telegram-bot records each change as a chango note, `changes/unreleased/*.toml` keyed
    /// by its section (`features = "…"`, `bugfixes = "…"`, `breaking = "…"`): read as towncrier's
    /// types are, a feature note over untyped subjects gives a minor, a breaking one a major.
    @Test(arguments: [("bugfixes", "1.2.1"), ("features", "1.3.0"), ("breaking", "2.0.0")])
    func changoNotesGiveTheLevel(section: String, expected: String) throws {
        let repo = try GitRepository()
        try repo.commit(
            "Bump version to v1.2.0",
            files: [
                "pyproject.toml": "[project]\nname = \"demo\"\nversion = \"1.2.0\"\n\n[tool.chango]\nsys_path = \"changes\"\n",
                "changes/unreleased/.gitkeep": "", "demo/a.py": "x = 0\n",
            ])
        try repo.git("tag", "-a", "v1.2.0", "-m", "v1.2.0")
        try repo.commit(
            "Fix a thing (#1)",
            files: [
                "demo/a.py": "x = 1\n",
                "changes/unreleased/1.aBc.toml": "bugfixes = \"Fix a thing\"\n[[pull_requests]]\nuid = \"1\"\nauthor_uids = [\"a\"]\n",
            ])
        try repo.commit(
            "Change a thing (#2)",
            files: [
                "demo/a.py": "x = 2\n",
                "changes/unreleased/2.dEf.toml": "\(section) = \"Change a thing\"\n[[pull_requests]]\nuid = \"2\"\nauthor_uids = [\"a\"]\n",
            ])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("fragments = \"chango\""), "\(config)")
        #expect(try Self.plan(repo).row["next"] as? String == expected)
    }
}
