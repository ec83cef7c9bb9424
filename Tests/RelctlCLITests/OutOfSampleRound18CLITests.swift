import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the eighteenth out-of-sample round (session 76) and the regression set's leftovers found
/// reading real repositories, each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound18CLITests {
    /// unocss tags `v66.7.0-beta.1`, then `v66.7.0` on the next commit, which changes only the
    /// versions; syncthing tags its final on its last rc's commit; supabase-js's member promotes
    /// a CI canary. With nothing since the prerelease, `plan` proposed nothing (16 points of the
    /// regression set, 5 of round 17): another prerelease of the same code is no release, its
    /// final is. A change since it still continues the counter.
    @Test(arguments: [false, true])
    func aPrereleaseWithNothingSinceIsPromotedToItsFinal(changedSince: Bool) throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"demo\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit("feat: start", files: ["package.json": package("1.0.0"), "src/a.js": "a\n"], date: "2025-01-01T00:00:00Z")
        try repo.git("tag", "v1.0.0")
        try repo.commit("feat: a new option", files: ["src/a.js": "b\n"], date: "2025-02-01T00:00:00Z")
        try repo.commit("chore: release v1.1.0-beta.1", files: ["package.json": package("1.1.0-beta.1")], date: "2025-02-02T00:00:00Z")
        try repo.git("tag", "v1.1.0-beta.1")
        if changedSince {
            try repo.commit("fix: a typo", files: ["src/a.js": "c\n"], date: "2025-02-03T00:00:00Z")
        }
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let row = try OutOfSampleRound15CLITests.rows(repo)["."]
        #expect(row?["current"] as? String == "1.1.0-beta.1", "\(String(describing: row))")
        #expect(row?["next"] as? String == (changedSince ? "1.1.0-beta.2" : "1.1.0"), "\(String(describing: row))")
        #expect(row?["tag"] as? String == (changedSince ? "v1.1.0-beta.2" : "v1.1.0"), "\(String(describing: row))")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == (changedSince ? "1.1.0-beta.2\n" : "1.1.0\n"), "\(bump)")
        if !changedSince {
            #expect(bump.stderr.contains("nothing changed since the prerelease v1.1.0-beta.1"), "\(bump)")
        }
    }

    /// In a workspace a member's prerelease with nothing since is shown promoted, but `bump --write`
    /// releasing the members with changes leaves it alone (an old beta must not become a final
    /// because another member had a fix), and no group or dependent moves with it; `--member`
    /// names it to write it. A development tag (`-dev`) opens a version: nothing to promote.
    @Test func aMembersPromotionIsShownAndWrittenOnlyWhenNamed() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        try repo.commit(
            "chore: workspace",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/core/Cargo.toml": crate("core", "1.0.0"), "crates/core/src/lib.rs": "\n",
                "crates/cli/Cargo.toml": crate("cli", "0.4.0"), "crates/cli/src/main.rs": "fn main() {}\n",
                "crates/dev/Cargo.toml": crate("dev", "0.2.0"), "crates/dev/src/lib.rs": "\n",
            ], date: "2025-01-01T00:00:00Z")
        for tag in ["core-v1.0.0", "cli-v0.4.0", "dev-v0.2.0"] { try repo.git("tag", tag) }
        try repo.commit("feat(core)!: a new API", files: ["crates/core/src/lib.rs": "pub fn a() {}\n"], date: "2025-02-01T00:00:00Z")
        try repo.commit(
            "chore: release core-v2.0.0-rc.1", files: ["crates/core/Cargo.toml": crate("core", "2.0.0-rc.1")],
            date: "2025-02-02T00:00:00Z")
        try repo.git("tag", "core-v2.0.0-rc.1")
        try repo.git("tag", "dev-v0.3.0-dev")
        try repo.commit("fix(cli): a flag's help", files: ["crates/cli/src/main.rs": "fn main() { }\n"], date: "2025-02-03T00:00:00Z")
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/core"]?["next"] as? String == "2.0.0", "\(rows)")
        #expect(rows["crates/core"]?["reason"] as? String == "none", "\(rows)")
        #expect(rows["crates/cli"]?["next"] as? String == "0.4.1", "\(rows)")
        #expect(rows["crates/dev"]?["next"] == nil || rows["crates/dev"]?["next"] is NSNull, "\(rows)")
        let all = try relctl(["bump", "--write"], in: repo.url)
        #expect(all.status == 0 && all.stdout == "cli 0.4.1\n", "\(all)")
        #expect(all.stderr.contains("`--member core` promotes it to 2.0.0"), "\(all)")
        #expect(try repo.directory.read("crates/core/Cargo.toml").contains("version = \"2.0.0-rc.1\""))
        let named = try relctl(["bump", "--write", "--member", "core"], in: repo.url)
        #expect(named.status == 0 && named.stdout == "core 2.0.0\n", "\(named)")
        #expect(try repo.directory.read("crates/core/Cargo.toml").contains("version = \"2.0.0\""))
    }

    /// stylelint ships changesets and released five minors in a row, so init wrote `cadence =
    /// "minor"` beside `fragments = "changesets"`; the cadence then outvoted the `patch`
    /// changesets (17.10.0 proposed, 17.9.1 released; 2 points). `changeset version` makes what
    /// the changesets say: they decide, the cadence waits for a release they do not name.
    @Test func changesetsNamingThePackageOutrankACadence() throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"lint\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit(
            "chore: changesets",
            files: [".changeset/config.json": "{\"baseBranch\": \"main\"}\n", "package.json": package("17.0.0")],
            date: "2025-01-01T00:00:00Z")
        try repo.git("tag", "17.0.0")
        for minor in 1...6 {
            try repo.commit("Add rule \(minor)", files: ["src/r\(minor).js": "x\n"], date: "2025-0\(minor + 1)-01T00:00:00Z")
            try repo.commit("Version Packages", files: ["package.json": package("17.\(minor).0")], date: "2025-0\(minor + 1)-02T00:00:00Z")
            try repo.git("tag", "17.\(minor).0")
        }
        try repo.commit(
            "Fix a false positive",
            files: [".changeset/fix-page-break.md": "---\n\"lint\": patch\n---\n\nFixed a false positive.\n", "src/r1.js": "y\n"],
            date: "2025-09-01T00:00:00Z")
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("cadence = \"minor\""), "\(config)")
        #expect(config.contains("fragments = \"changesets\""), "\(config)")
        let row = try OutOfSampleRound15CLITests.rows(repo)["."]
        #expect(row?["next"] as? String == "17.6.1", "\(String(describing: row))")
    }

    /// electric's client: changesets' version commit ("chore: publish new package versions")
    /// wrote 1.5.25 after a `feat(sync-service):` whose changeset said `patch`. With no changeset
    /// left, the version `changeset version` wrote, no tag naming it yet, is the release: relctl
    /// proposed the commits' 1.6.0 (what a CI running relctl just after `changeset version` meets).
    @Test func theVersionChangesetsWroteStandsOverTheCommits() throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"@acme/client\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit(
            "chore: changesets",
            files: [".changeset/config.json": "{\"baseBranch\": \"main\"}\n", "package.json": package("1.5.24")],
            date: "2025-01-01T00:00:00Z")
        try repo.git("tag", "v1.5.24")
        try repo.commit(
            "feat(sync-service): remove subquery feature flags",
            files: [".changeset/quiet-owls.md": "---\n\"@acme/client\": patch\n---\n\nRemoved the flags.\n", "src/a.js": "x\n"],
            date: "2025-01-02T00:00:00Z")
        _ = try OutOfSampleRound15CLITests.initialise(repo)
        try repo.git("rm", "-q", ".changeset/quiet-owls.md")
        try repo.commit(
            "chore: publish new package versions",
            files: ["package.json": package("1.5.25"), "CHANGELOG.md": "# @acme/client\n\n## 1.5.25\n\n### Patch Changes\n\n- Removed the flags.\n"],
            date: "2025-01-03T00:00:00Z")
        let row = try OutOfSampleRound15CLITests.rows(repo)["."]
        #expect(row?["next"] as? String == "1.5.25", "\(String(describing: row))")
        #expect(row?["tag"] as? String == "v1.5.25", "\(String(describing: row))")
    }

    /// taplo's CLI crate (`taplo-cli`, whose binary takes the repository's name) is tagged
    /// `release-taplo-cli-X`; beside it the VS Code extension's `release-vscode-0.8.1` (2020) and the
    /// library's `release-taplo-0.9.0`. With its Cargo.toml at 0.8.1 before its tag, init took
    /// the extension's series because one of its tags names that number (2 points).
    @Test func aSeriesSpellingThePackagesNameWinsOverAnotherNamingTheSameNumber() throws {
        let repo = try GitRepository()
        try repo.git("remote", "add", "origin", "https://github.com/acme/taplo.git")
        func crate(_ version: String) -> String {
            "[package]\nname = \"taplo-cli\"\nversion = \"\(version)\"\nedition = \"2021\"\n\n[[bin]]\nname = \"taplo\"\npath = \"src/main.rs\"\n"
        }
        try repo.commit(
            "chore: start", files: ["crates/taplo-cli/Cargo.toml": crate("0.7.0"), "crates/taplo-cli/src/main.rs": "fn main() {}\n", "editors/vscode/package.json": "{}\n"],
            date: "2020-07-01T00:00:00Z")
        try repo.git("tag", "release-vscode-0.8.1")
        try repo.git("tag", "release-taplo-cli-0.7.0")
        try repo.commit("feat: a flag", files: ["crates/taplo-cli/Cargo.toml": crate("0.8.0"), "crates/taplo-cli/src/main.rs": "fn main() { }\n"], date: "2021-01-01T00:00:00Z")
        try repo.git("tag", "release-taplo-cli-0.8.0")
        try repo.commit("fix: the flag", files: ["crates/taplo-cli/src/main.rs": "fn main() {  }\n"], date: "2021-02-01T00:00:00Z")
        try repo.commit("chore: bump versions", files: ["crates/taplo-cli/Cargo.toml": crate("0.8.1")], date: "2021-02-02T00:00:00Z")
        let member = repo.url.appendingPathComponent("crates/taplo-cli")
        let initialised = try relctl(["init", "--quiet"], in: member)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("crates/taplo-cli/relctl.toml")
        #expect(!config.contains("release-vscode-"), "\(config)")
        let plan = try relctl(["plan", "--json"], in: member)
        let rows = try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]] ?? []
        #expect(rows.first?["current"] as? String == "0.8.0", "\(plan)")
        #expect(rows.first?["next"] as? String == "0.8.1", "\(plan)")
        #expect(rows.first?["tag"] as? String == "release-taplo-cli-0.8.1", "\(plan)")
    }

    /// pyinstaller (towncrier) ships "Incompatible Changes" in minors (5.4, 5.6, 5.7, 5.8, 5.10)
    /// and released its `breaking` fragments as 6.5.0, 6.7.0, 6.8.0, 6.10.0; relctl proposed
    /// 7.0.0 each time (4 points). Where the notes show breaking sections shipped as minors (three
    /// at least, twice the majors that had one), init writes `breaking = "minor"`; a project whose
    /// breaking sections come with its majors keeps SemVer's major.
    @Test(arguments: [true, false])
    func towncrierNotesShowingBreakingMinorsKeepTheMinor(minors: Bool) throws {
        let repo = try GitRepository()
        let pyproject = """
            [project]
            name = "demo"
            version = "2.0.0"

            [tool.towncrier]
            directory = "news"
            filename = "doc/CHANGES.rst"
            type = [
                { directory = "feature", name = "Features", showcontent = true },
                { directory = "bugfix", name = "Bugfix", showcontent = true },
                { directory = "breaking", name = "Incompatible Changes", showcontent = true },
            ]

            """
        let versions = minors ? ["2.0.0", "2.1.0", "2.2.0", "2.3.0", "2.4.0", "2.5.0"] : ["2.0.0", "2.1.0", "3.0.0", "3.1.0", "4.0.0", "4.1.0"]
        var notes = ""
        for (index, version) in versions.enumerated() {
            let breaking = minors ? index % 2 == 0 || index == 5 : version.hasSuffix(".0.0")
            let title = "\(version) (2025-0\(index + 1)-01)"
            notes =
                "\(title)\n\(String(repeating: "-", count: title.count))\n\nFeatures\n~~~~~~~~\n\n- A feature (#\(index)0)\n\n"
                + (breaking ? "Incompatible Changes\n~~~~~~~~~~~~~~~~~~~~\n\n- An option was removed (#\(index)1)\n\n" : "") + notes
            try repo.commit(
                "Release \(version)",
                files: [
                    "pyproject.toml": pyproject.replacingOccurrences(of: "2.0.0", with: version),
                    "doc/CHANGES.rst": "Changelog\n=========\n\n.. towncrier release notes start\n\n" + notes,
                    "news/.gitignore": "!.gitignore\n",
                ])
            try repo.git("tag", "v\(version)")
        }
        try repo.commit("Remove the deprecated hook API", files: ["news/8329.breaking.rst": "The old hook API was removed.\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("fragments = \"towncrier\""), "\(config)")
        #expect(config.contains("breaking = \"minor\"") == minors, "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (minors ? "2.6.0" : "5.0.0"), "\(bump)")
    }
}
