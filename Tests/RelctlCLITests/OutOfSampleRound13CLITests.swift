import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the thirteenth out-of-sample round of the back-test found (session 71: citty,
/// terraform-plugin-go, conda-build, …), each on a generated repository of the shape that was
/// read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound13CLITests {
    static func bump(_ repo: GitRepository) throws -> (next: String?, result: RunResult) {
        let result = try relctl(["bump", "--json"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        return (try BacktestFindingsCLITests.field(result.stdout, "next") as? String, result)
    }

    static func packageJSON(_ name: String, _ version: String) -> String {
        "{\n  \"name\": \"\(name)\",\n  \"version\": \"\(version)\"\n}\n"
    }

    /// citty (unjs, released with changelogen): an npm package below 1.0.0 whose `feat:` commits
    /// were released as patches (0.1.2, 0.1.4, 0.1.5). Cargo's 0.x rule was read from Cargo
    /// projects only, and a feat gave 0.2.0. init now reads it from any project's 0.x releases,
    /// but not where changesets decide the level (a `minor` changeset is a minor below 1.0.0).
    @Test func aPackageBelowOneWhoseFeatsShippedAsPatchesKeepsDoingSo() throws {
        for changesets in [false, true] {
            let repo = try GitRepository()
            var files = ["package.json": Self.packageJSON("citty", "0.1.1"), "src/index.ts": "\n"]
            if changesets { files[".changeset/config.json"] = "{}\n" }
            try repo.commit("chore(release): v0.1.1", files: files)
            try repo.git("tag", "v0.1.1")
            for (index, version) in ["0.1.2", "0.1.3", "0.1.4"].enumerated() {
                try repo.commit(
                    version == "0.1.3" ? "fix: a fix" : "feat: option \(index)", files: ["src/f\(index).ts": "\n"])
                try repo.commit("chore(release): v\(version)", files: ["package.json": Self.packageJSON("citty", version)])
                try repo.git("tag", "v\(version)")
            }
            try repo.commit("feat: add createMain utility", files: ["src/main.ts": "\n"])
            let initialised = try relctl(["init", "--quiet"], in: repo.url)
            #expect(initialised.status == 0, "\(initialised)")
            let config = try repo.directory.read("relctl.toml")
            if changesets {
                #expect(!config.contains("zero-major"), "\(config)")
                continue
            }
            #expect(
                config.contains("zero-major = \"cargo\"   # feat commits were released as patches below 1.0.0 (v0.1.4, v0.1.2)\n"),
                "\(config)")
            let (next, result) = try Self.bump(repo)
            #expect(next == "0.1.5", "\(result)")
            try repo.commit("feat!: drop node 16", files: ["src/b.ts": "\n"])
            #expect(try Self.bump(repo).next == "0.2.0")
        }
    }

    /// tokio's console-subscriber released 0.1.3 with a `feat` and 0.1.4 with a `feat` whose
    /// commit (CRLF line ends) carried a `BREAKING CHANGE:` footer for console-api, as patches.
    /// Read with its footer, that step was a breaking one, and Cargo's 0.x rule lost one of its
    /// two feat patches; a breaking change released as a patch says as much as a feat released so.
    @Test func aBreakingChangeReleasedAsAPatchShowsCargosZeroMajorRule() throws {
        let repo = try GitRepository()
        func cargo(_ version: String) -> String { "[package]\nname = \"console-subscriber\"\nversion = \"\(version)\"\n" }
        try repo.commit("chore: release", files: ["Cargo.toml": cargo("0.1.2"), "src/lib.rs": "\n"])
        try repo.git("tag", "console-subscriber-v0.1.2")
        try repo.commit("feat(subscriber): add `Builder::filter_env_var`", files: ["src/a.rs": "\n"])
        try repo.commit("chore(subscriber): prepare to release v0.1.3", files: ["Cargo.toml": cargo("0.1.3")])
        try repo.git("tag", "console-subscriber-v0.1.3")
        let message = [
            "feat(console-api): Update `tonic` to `0.7` (#318)", "", "Updates the generated code.", "", "BREAKING CHANGE: ",
            "`console-api` is now no longer compatible with projects using `prost` 0.9.",
        ].joined(separator: "\r\n")
        try repo.directory.write("src/b.rs", "\n")
        try repo.git("add", "-A")
        try repo.git("commit", "-q", "--cleanup=verbatim", "-m", message)
        try repo.commit("chore: prepare to release v0.1.4", files: ["Cargo.toml": cargo("0.1.4")])
        try repo.git("tag", "console-subscriber-v0.1.4")
        try repo.commit("feat(subscriber): add support for `EnvFilter`", files: ["src/c.rs": "\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("zero-major = \"cargo\""), "\(config)")
        let (next, result) = try Self.bump(repo)
        #expect(next == "0.1.5", "\(result)")
    }

    /// terraform-plugin-go's CHANGELOG.md: changie's `## 0.23.0 (May 06, 2024)` sections above
    /// 21 older `# 0.14.3` ones. The release headings' level was the one most headings of the
    /// whole file have (`#`), so the newest `## 0.23.0`, written before the tag, said nothing:
    /// init wrote no `changelog` and a commit without a type gave 0.22.3. The newest headings
    /// decide the level now.
    @Test func aChangelogThatChangedItsHeadingStyleIsReadByItsNewestHeadings() throws {
        let repo = try GitRepository()
        var changelog = ""
        for minor in stride(from: 22, through: 12, by: -1) { changelog += "## 0.\(minor).0 (May 06, 2024)\n\nNOTES:\n\n* a note\n\n" }
        for patch in stride(from: 20, through: 0, by: -1) { changelog += "# 0.11.\(patch) (January 5, 2023)\n\nBUG FIXES:\n\n* a fix\n\n" }
        try repo.commit("Initial", files: ["go.mod": "module github.com/hashicorp/terraform-plugin-go\n\ngo 1.22\n", "CHANGELOG.md": changelog])
        try repo.git("tag", "v0.22.0")
        try repo.commit("tfprotov6: Add deferred action support", files: ["tfprotov6/a.go": "package tfprotov6\n"])
        try repo.commit(
            "Update changelog",
            files: ["CHANGELOG.md": "## 0.23.0 (May 20, 2024)\n\nFEATURES:\n\n* deferred actions\n\n" + changelog])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        let (next, result) = try Self.bump(repo)
        #expect(next == "0.23.0", "\(result)")
    }

    /// terraform-plugin-go at v0.29.0-beta.1: its changelog's `## 0.29.0 (September 17, 2025)`
    /// above `## 0.29.0-beta.1` names the final that ends the beta, as a manifest holding 0.29.0
    /// does; relctl went on with 0.29.0-beta.2. A heading naming the final while no heading names
    /// the prerelease (the whole rc series written under `## 2.0.0`) still says nothing new.
    @Test func aChangelogHeadingNamingTheFinalAboveThePrereleasesEndsIt() throws {
        for ownHeading in [true, false] {
            let repo = try GitRepository()
            let older = "## 0.28.0 (May 21, 2025)\n\nFEATURES:\n\n* a feature\n\n## 0.27.0 (May 16, 2025)\n\nNOTES:\n\n* a note\n"
            let beta = ownHeading ? "## 0.29.0-beta.1 (July 31, 2025)\n\nFEATURES:\n\n* resource identity\n\n" : ""
            try repo.commit("Initial", files: ["go.mod": "module example.com/tpg\n\ngo 1.22\n", "CHANGELOG.md": beta + older])
            try repo.git("tag", "v0.27.0", "HEAD")
            try repo.git("tag", "v0.28.0", "HEAD")
            try repo.commit("Release 0.29.0-beta.1", files: ["a.go": "package tpg\n"])
            try repo.git("tag", "v0.29.0-beta.1")
            try repo.commit("Bump the minimum Go version", files: ["b.go": "package tpg\n"])
            let final = ownHeading ? "## 0.29.0 (September 17, 2025)\n\nNOTES:\n\n* all of the beta\n\n" : "## 0.29.0 (unreleased)\n\n* all of the beta\n\n"
            try repo.commit("Update changelog", files: ["CHANGELOG.md": final + beta + older])

            let initialised = try relctl(["init", "--quiet"], in: repo.url)
            #expect(initialised.status == 0, "\(initialised)")
            let config = try repo.directory.read("relctl.toml")
            let (next, result) = try Self.bump(repo)
            if ownHeading {
                #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
                #expect(next == "0.29.0", "\(result)")
                #expect(result.stderr.contains("names 0.29.0"), "says why: \(result)")
            } else {
                #expect(!config.contains("changelog ="), "\(config)")
                #expect(next == "0.29.0-beta.2", "\(result)")
            }
        }
    }

    /// conda-build: `YY.M.P` named after the month of release (25.1.0 in January 2025, 25.3.0 in
    /// March, 25.4.0, 25.5.0), all of one year before its first of 2026. Calendar versions were
    /// read only once the tags spanned two years, and a July fix gave 25.5.1. Months left out
    /// between releases say it within a year (SemVer never skips a minor).
    @Test func monthNamedReleasesOfOneYearThatSkipMonthsAreCalendarVersions() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"conda-build\"\ndynamic = [\"version\"]\n")
        for (version, date) in [
            ("25.1.0", "2025-01-14"), ("25.1.1", "2025-01-15"), ("25.3.0", "2025-03-19"), ("25.4.0", "2025-04-17"),
            ("25.5.0", "2025-05-27"),
        ] {
            try repo.commit("Release \(version)", files: ["CHANGELOG.md": version + "\n"], date: date + "T10:00:00Z")
            try repo.git("tag", version)
        }
        try repo.commit("Fix the recipe renderer", files: ["a.py": "a\n"], date: "2025-07-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")
        let (next, result) = try Self.bump(repo)
        #expect(next == "25.7.0", "\(result)")
    }
}
