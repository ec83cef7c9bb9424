import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What session 73 found reading real repositories (anthropic-sdk-typescript, left from round 13,
/// and the fifteenth out-of-sample round), each on a generated repository of the shape that was
/// read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound15CLITests {
    static func rows(_ repo: GitRepository) throws -> [String: [String: Any]] {
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: members.map { ($0["path"] as? String ?? "?", $0) })
    }

    static func initialise(_ repo: GitRepository) throws -> String {
        let result = try relctl(["init", "--quiet"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        return try repo.directory.read("relctl.toml")
    }

    /// anthropic-sdk-typescript: the root package.json is the published `@anthropic-ai/sdk`
    /// (tags `sdk-v0.120.0`) beside pnpm's `packages/*` (`bedrock-sdk-v0.33.1`, …), and
    /// release-please's manifest lists it as `"."`. init listed `packages/*` alone, so `plan` had no
    /// row for the SDK itself: its release was never proposed.
    static func sdkWorkspace(releasePlease: Bool, rootPrivate: Bool = false, rootTags: Int = 3) throws -> GitRepository {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String, isPrivate: Bool = false) -> String {
            "{\n  \"name\": \"\(name)\",\n  \"version\": \"\(version)\"\(isPrivate ? ",\n  \"private\": true" : "")\n}\n"
        }
        var files = [
            "package.json": package("@acme/sdk", "0.3.0", isPrivate: rootPrivate),
            "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
            "src/index.ts": "export {}\n",
            "packages/aws-sdk/package.json": package("@acme/aws-sdk", "0.2.0"),
            "packages/vertex-sdk/package.json": package("@acme/vertex-sdk", "0.5.0"),
        ]
        if releasePlease {
            files[".release-please-manifest.json"] =
                "{\n  \".\": \"0.3.0\",\n  \"packages/aws-sdk\": \"0.2.0\",\n  \"packages/vertex-sdk\": \"0.5.0\"\n}\n"
        }
        try repo.commit("chore: start", files: files)
        for version in ["0.1.0", "0.2.0", "0.3.0"].suffix(rootTags) { try repo.git("tag", "sdk-v\(version)") }
        for version in ["0.1.0", "0.2.0"] { try repo.git("tag", "aws-sdk-v\(version)") }
        for version in ["0.4.0", "0.5.0"] { try repo.git("tag", "vertex-sdk-v\(version)") }
        try repo.commit("fix: retry on overload", files: ["src/index.ts": "export const retry = true\n"])
        try repo.commit("fix(aws): region", files: ["packages/aws-sdk/index.ts": "export {}\n"])
        return repo
    }

    @Test(arguments: [true, false])
    func aPublishedRootPackageBesideItsWorkspaceIsAMember(releasePlease: Bool) throws {
        // With release-please's manifest listing `.`, one tag of the root's own is enough.
        let repo = try Self.sdkWorkspace(releasePlease: releasePlease, rootTags: releasePlease ? 1 : 3)
        let config = try Self.initialise(repo)
        #expect(config.contains("members = [\".\", \"packages/*\"]"), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let rows = try Self.rows(repo)
        #expect(rows["."]?["current"] as? String == "0.3.0", "\(rows)")
        #expect(rows["."]?["next"] as? String == "0.3.1", "\(rows)")
        #expect(rows["."]?["tag"] as? String == "sdk-v0.3.1", "\(rows)")
        #expect(rows["."]?["commits"] as? Int == 1, "the aws fix is not the root's: \(rows)")
        #expect(rows["packages/aws-sdk"]?["tag"] as? String == "aws-sdk-v0.2.1", "\(rows)")
    }

    /// The usual shape stays as it was: a private root (the workspace's tooling), or a public one
    /// no release names, is not a member.
    @Test func aPrivateOrUnreleasedRootIsNotAMember() throws {
        for repo in [
            try Self.sdkWorkspace(releasePlease: false, rootPrivate: true),
            try Self.sdkWorkspace(releasePlease: false, rootTags: 0),
        ] {
            let config = try Self.initialise(repo)
            #expect(config.contains("members = [\"packages/*\"]"), "\(config)")
            #expect(try Self.rows(repo)["."] == nil)
        }
    }

    /// python-telegram-bot's `v21.8` … `v22.8` look like two-digit years and months, but were tagged
    /// in 2025 and 2026: init wrote `version-scheme = "calver"` and plan proposed today's date
    /// (0 of 10). A year-and-month reading now needs the tag made within a year of it; helix's
    /// `24.7`, tagged in July 2024, still reads as one.
    @Test func twoNumbersTaggedYearsAfterTheirFirstAreNotCalendarVersions() throws {
        func history(_ versions: [(String, String)]) throws -> GitRepository {
            let repo = try GitRepository()
            try repo.commit("chore: start", files: ["pyproject.toml": "[project]\nname = \"demo\"\ndynamic = [\"version\"]\n"])
            for (version, date) in versions {
                try repo.commit("Bump version to v\(version)", files: ["demo/_version.py": "__version__ = \"\(version)\"\n"], date: date)
                try repo.git(["tag", "-a", "v\(version)", "-m", "v\(version)"], environment: ["GIT_COMMITTER_DATE": date])
            }
            try repo.commit("Fix a bug", files: ["demo/a.py": "x = 1\n"])
            return repo
        }
        let semver = try history([
            ("21.9", "2025-01-10T12:00:00Z"), ("21.10", "2025-02-10T12:00:00Z"), ("21.11", "2025-03-10T12:00:00Z"),
            ("22.0", "2025-04-10T12:00:00Z"), ("22.1", "2025-05-10T12:00:00Z"), ("22.2", "2025-06-10T12:00:00Z"),
        ])
        let config = try Self.initialise(semver)
        #expect(!config.contains("calver"), "\(config)")
        let bumped = try relctl(["bump", "--json"], in: semver.url)
        // SemVer's reading of two numbers: a fix steps the second (22.3, not a date's 25.x).
        #expect(try BacktestFindingsCLITests.field(bumped.stdout, "next") as? String == "22.3.0", "\(bumped)")

        let calendar = try history([
            ("24.3", "2024-03-10T12:00:00Z"), ("24.7", "2024-07-10T12:00:00Z"), ("24.12", "2025-01-03T12:00:00Z"),
            ("25.3", "2025-03-10T12:00:00Z"),
        ])
        #expect(try Self.initialise(calendar).contains("version-scheme = \"calver\""))
    }
}

extension OutOfSampleRound15CLITests {
    /// powertools-lambda-python heads its changelog with an empty H1 `# Unreleased` over H2 release
    /// sections (`## [v2.39.0] - 2024-06-13`, then `## Features`, `## Bug Fixes`): the released
    /// `## Features` below were read as unreleased, and a fix gave a minor (3 points). Its section
    /// now ends at the first release heading; `notes --changelog --force` for the unreleased notes
    /// replaces that empty section, not the whole file.
    @Test func anUnreleasedHeadingAboveTheReleaseLevelEndsAtTheFirstRelease() throws {
        let repo = try GitRepository()
        let changelog = """
            <a name="unreleased"></a>
            # Unreleased


            <a name="v1.1.0"></a>
            ## [v1.1.0] - 2024-06-13
            ## Bug Fixes

            * **logger:** a fix

            ## Features

            * **handler:** a feature

            ## Maintenance

            * version bump

            """
        try repo.commit(
            "chore: version bump",
            files: ["pyproject.toml": "[project]\nname = \"demo\"\nversion = \"1.1.0\"\n", "CHANGELOG.md": changelog])
        try repo.git("tag", "-a", "v1.1.0", "-m", "v1.1.0")
        try repo.commit("fix(logger): another fix", files: ["a.py": "x = 1\n"])
        // The empty section says nothing, so init leaves the changelog out (it read `## Features`
        // as unreleased and wrote it); configured by hand, it still says nothing.
        let config = try Self.initialise(repo)
        #expect(!config.contains("changelog ="), "\(config)")
        try repo.directory.write("relctl.toml", config + "\n[versioning]\nchangelog = \"CHANGELOG.md\"\n")
        let bumped = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(bumped.stdout, "next") as? String == "1.1.1", "\(bumped)")

        let notes = try relctl(["notes", "--changelog", "CHANGELOG.md", "--force"], in: repo.url)
        #expect(notes.status == 0, "\(notes)")
        let written = try repo.directory.read("CHANGELOG.md")
        #expect(written.contains("another fix"), "\(written)")
        #expect(written.contains("## [v1.1.0] - 2024-06-13") && written.contains("* **handler:** a feature"), "\(written)")
    }
}

extension OutOfSampleRound15CLITests {
    /// charmbracelet/x's cellbuf released feats as patches at 0.0.z, so init wrote Cargo's rule,
    /// which then made a breaking change 0.1.0; at 0.0.z Cargo counts each release incompatible
    /// with the one before, and the project shipped its `!` commits as 0.0.(z+1) (3 points).
    @Test func underCargosRuleABreakingChangeAtZeroZeroIsAPatch() throws {
        let repo = try GitRepository()
        try repo.commit("chore: init", files: ["go.mod": "module example.com/z\n", "z.go": "package z\n"])
        try repo.git("tag", "v0.0.1")
        for patch in 2...5 {
            try repo.commit("feat: thing \(patch)", files: ["z\(patch).go": "package z\n"])
            try repo.git("tag", "v0.0.\(patch)")
        }
        try repo.commit("refactor!: rename the API", files: ["z.go": "package z // renamed\n"])
        let config = try Self.initialise(repo)
        #expect(config.contains("zero-major = \"cargo\""), "\(config)")
        let bumped = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(bumped.stdout, "next") as? String == "0.0.6", "\(bumped)")

        // At 0.1.0 and above the rule is as before: a breaking change gives the minor.
        try repo.git("tag", "v0.1.0")
        try repo.commit("feat!: drop the old API", files: ["z6.go": "package z\n"])
        let minor = try relctl(["bump", "--json"], in: repo.url)
        #expect(try BacktestFindingsCLITests.field(minor.stdout, "next") as? String == "0.2.0", "\(minor)")
    }
}
