import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the seventeenth out-of-sample round (session 75) found reading real repositories, each on
/// a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound17CLITests {
    /// watchexec's CLI crate (`watchexec-cli` in `crates/cli`) was tagged `cli-v1.20.6` until 2022,
    /// then by the bare series (`v1.21.0` … `v2.3.3`, the version its manifest holds) while the
    /// library keeps `watchexec-v…`. Its own tags spell it by its short name (`watchexec-` is the
    /// word its siblings share), not the package's:
    /// read by the package name alone it had none, the bare series went to no member, and init
    /// wrote `watchexec-cli = "cli-v{version}"` (8 points, 10 tag spellings).
    @Test func aMemberTaggedByItsShortNameThatMovedToTheBareSeriesTakesIt() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        try repo.commit(
            "chore: workspace",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/cli/Cargo.toml": crate("demo-cli", "1.20.4"), "crates/cli/src/main.rs": "fn main() {}\n",
                "crates/lib/Cargo.toml": crate("demo", "1.0.0"), "crates/lib/src/lib.rs": "\n",
                "crates/events/Cargo.toml": crate("demo-events", "1.0.0"), "crates/events/src/lib.rs": "\n",
            ], date: "2022-01-01T00:00:00Z")
        for tag in ["cli-v1.20.4", "demo-v1.0.0", "demo-events-v1.0.0"] { try repo.git("tag", tag) }
        for (index, version) in ["1.20.5", "1.20.6"].enumerated() {
            try repo.commit(
                "release: cli v\(version)", files: ["crates/cli/Cargo.toml": crate("demo-cli", version)],
                date: "2022-0\(index + 2)-01T00:00:00Z")
            try repo.git("tag", "cli-v\(version)")
        }
        for (index, version) in ["1.21.0", "2.0.0", "2.1.0", "2.1.1"].enumerated() {
            try repo.commit(
                "release: cli v\(version)", files: ["crates/cli/Cargo.toml": crate("demo-cli", version)],
                date: "2024-0\(index + 1)-01T00:00:00Z")
            try repo.git("tag", "v\(version)")
        }
        for (index, version) in ["1.1.0", "1.2.0"].enumerated() {
            try repo.commit(
                "release: demo v\(version)", files: ["crates/lib/Cargo.toml": crate("demo", version)],
                date: "2024-0\(index + 6)-01T00:00:00Z")
            try repo.git("tag", "demo-v\(version)")
        }
        try repo.commit("feat(cli): a new flag", files: ["crates/cli/src/main.rs": "fn main() { }\n"], date: "2024-09-01T00:00:00Z")
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("demo-cli = \"v{version}\""), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/cli"]?["current"] as? String == "2.1.1", "\(rows)")
        #expect(rows["crates/cli"]?["next"] as? String == "2.2.0", "\(rows)")
        #expect(rows["crates/cli"]?["tag"] as? String == "v2.2.0", "\(rows)")
        #expect(rows["crates/lib"]?["current"] as? String == "1.2.0", "\(rows)")
        #expect(rows["crates/events"]?["current"] as? String == "1.0.0", "\(rows)")
    }

    /// hydrogen versions by its API's quarter (`2025.10.0`) and ships changesets: a `patch`
    /// changeset made in February was released as 2025.10.1, and relctl proposed the date's
    /// 2026.2.0 (3 points). Changesets that decide a patch keep the latest release's series; a
    /// `minor` one still takes the date's version.
    @Test(arguments: [("patch", "2025.10.1"), ("minor", "2026.2.0")])
    func aPatchChangesetKeepsTheCalendarSeries(level: String, expected: String) throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"@acme/app\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit(
            "chore: changesets",
            files: [".changeset/config.json": "{\"baseBranch\": \"main\"}\n", "package.json": package("2025.1.0")],
            date: "2025-01-10T00:00:00Z")
        try repo.git("tag", "v2025.1.0")
        for (month, version) in [(4, "2025.4.0"), (7, "2025.7.0"), (10, "2025.10.0")] {
            try repo.commit(
                "Version Packages", files: ["package.json": package(version)],
                date: String(format: "2025-%02d-10T00:00:00Z", month))
            try repo.git("tag", "v\(version)")
        }
        try repo.commit(
            "Fix the cart drawer",
            files: [".changeset/plenty-schools-end.md": "---\n'@acme/app': \(level)\n---\n\nFix the cart drawer.\n", "src/cart.js": "x\n"],
            date: "2026-02-06T00:00:00Z")
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("version-scheme = \"calver\"") && config.contains("fragments = \"changesets\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == expected, "\(bump)")
    }

    /// datafusion-sqlparser-rs releases a minor every time; three of its last five ranges held one
    /// contributor's `feat:` among some fifty untyped subjects, which counted as the commits
    /// explaining those minors, so init wrote no cadence and the next untyped range got a patch.
    /// A mostly untyped range explains nothing; in a typed history the feats still do.
    @Test(arguments: [false, true])
    func aFewTypedSubjectsInUntypedRangesDoNotExplainAMinorCadence(typed: Bool) throws {
        let repo = try GitRepository()
        func cargo(_ version: String) -> String { "[package]\nname = \"demo\"\nversion = \"\(version)\"\n" }
        var file = 0
        func change(_ subject: String) throws {
            file += 1
            try repo.commit(subject, files: ["src/f\(file).rs": "// \(file)\n"])
        }
        try repo.commit("Prepare 0.1.0 release", files: ["Cargo.toml": cargo("0.1.0")])
        try repo.git("tag", "v0.1.0")
        for minor in 2...6 {
            for index in 0..<4 { try change(typed ? "fix: parse case \(minor).\(index)" : "Support case \(minor).\(index)") }
            if (3...5).contains(minor) { try change("feat: support syntax \(minor)") }
            try repo.commit("Prepare 0.\(minor).0 release", files: ["Cargo.toml": cargo("0.\(minor).0")])
            try repo.git("tag", "v0.\(minor).0")
        }
        for index in 0..<3 { try change(typed ? "fix: parse more \(index)" : "Parse more \(index)") }
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("cadence = \"minor\"") == !typed, "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (typed ? "0.6.1" : "0.7.0"), "\(bump)")
    }

    /// buf's changelog is a flat list under each heading (`- Add support for …`, `- Fix …`), no
    /// `### Added`: relctl read nothing there and proposed patches for four minors. Where the
    /// released sections show an added entry shipping as a minor, the Unreleased section's verbs
    /// give the level; where they show it shipping as patches, they give none.
    @Test(arguments: [true, false])
    func aFlatUnreleasedListAddingSomethingIsAMinorWhereTheHistoryShowsIt(addsAreMinors: Bool) throws {
        let repo = try GitRepository()
        var released = ""
        var version = (1, 60, 0)
        // With minors, a fix-only patch now and then: no minor cadence decides.
        let steps = addsAreMinors ? ["add", "add", "fix", "add", "add", "fix", "add", "add"] : Array(repeating: "add", count: 6)
        for (index, step) in steps.enumerated() {
            if addsAreMinors, step == "add" { version = (1, version.1 + 1, 0) } else { version = (1, version.1, version.2 + 1) }
            let name = "\(version.0).\(version.1).\(version.2)"
            let added = step == "add" ? "- Add the `lint \(index)` command.\n" : ""
            released = "## [v\(name)] - 2026-01-0\(index + 1)\n\n\(added)- Fix a crash \(index).\n\n" + released
            try repo.commit(
                "Release v\(name)",
                files: [
                    "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n\n- No changes yet.\n\n" + released,
                    "go.mod": "module example.com/buf\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n// \(index)\n",
                ])
            try repo.git("tag", "v\(name)")
        }
        try repo.commit(
            "Add OpenBSD release binaries",
            files: [
                "CHANGELOG.md": "# Changelog\n\n## [Unreleased]\n\n- Fix a panic in the LSP.\n- Add OpenBSD release binaries.\n\n" + released,
                "release.sh": "echo\n",
            ])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("changelog = \"CHANGELOG.md\"") == addsAreMinors, "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        let expected = addsAreMinors ? "1.67.0" : "1.60.7"
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == expected, "\(bump)")
    }

    /// sqlalchemy's `rel_2_0` line is released from untyped commits; one contributor's `feat:`
    /// among sixty subjects made `plan` refuse the line (exit 1). A line whose releases were made
    /// from mostly untyped commits keeps its range; a typed line still refuses a feat.
    @Test(arguments: [false, true])
    func anUntypedMaintenanceLineKeepsItsRangeOverALoneFeat(typed: Bool) throws {
        let repo = try GitRepository()
        var day = 0
        func commit(_ subject: String, _ files: [String: String]) throws {
            day += 1
            try repo.commit(subject, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
        }
        func pyproject(_ version: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"demo\"\nversion = \"\(version)\"\n"]
        }
        try commit("Version 2.0.0", pyproject("2.0.0"))
        try repo.git("tag", "rel_2_0_0")
        try repo.git("checkout", "-q", "-b", "rel_2_0")
        var file = 0
        for patch in 1...3 {
            for _ in 0..<4 {
                file += 1
                try commit(typed ? "fix: handle case \(file)" : "Handle case \(file)", ["lib/f\(file).py": "x = \(file)\n"])
            }
            try commit("Version 2.0.\(patch)", pyproject("2.0.\(patch)"))
            try repo.git("tag", "rel_2_0_\(patch)")
        }
        try repo.git("checkout", "-q", "main")
        try commit("Version 2.1.0", pyproject("2.1.0").merging(["lib/new.py": "y = 1\n"]) { $1 })
        try repo.git("tag", "rel_2_1_0")
        try repo.git("checkout", "-q", "rel_2_0")
        try commit("Handle another case", ["lib/a.py": "a = 1\n"])
        try commit("feat: Support MySQL FOR SHARE locking syntax.", ["lib/b.py": "b = 1\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("range = \"2.0.x\""), "\(config)")
        #expect(config.contains("keep-in-range = true") == !typed, "\(config)")
        let bump = try relctl(["bump"], in: repo.url)
        if typed {
            #expect(bump.status == 1 && bump.stderr.contains("releases within 2.0.x, but commit"), "\(bump)")
        } else {
            #expect(bump.status == 0 && bump.stdout == "2.0.4\n", "\(bump)")
        }
    }

    /// vector's helm-charts repository holds one chart, `charts/vector`, tagged `vector-0.45.0`,
    /// and nothing at its root: init there wrote no chart, `v{version}` and proposed 0.1.0. That
    /// one chart is a workspace of one member when its own tags name it.
    @Test func aRepositoryOfOneChartIsThatChart() throws {
        let repo = try GitRepository()
        func chart(_ version: String) -> String { "apiVersion: v2\nname: vector\nversion: \(version)\nappVersion: \"0.49.0\"\n" }
        try repo.commit("Initial chart", files: ["README.md": "charts\n", "charts/vector/Chart.yaml": chart("0.43.0")])
        try repo.git("tag", "vector-0.43.0")
        for version in ["0.44.0", "0.45.0"] {
            try repo.commit("feat(vector): release \(version)", files: ["charts/vector/Chart.yaml": chart(version)])
            try repo.git("tag", "vector-\(version)")
        }
        try repo.commit("fix(vector): a template typo", files: ["charts/vector/templates/a.yaml": "a: 1\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("members = [\"charts/*\"]"), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["charts/vector"]?["current"] as? String == "0.45.0", "\(rows)")
        #expect(rows["charts/vector"]?["next"] as? String == "0.45.1", "\(rows)")
        #expect(rows["charts/vector"]?["tag"] as? String == "vector-0.45.1", "\(rows)")
    }

    /// release-it's changelog lists breaking changes for each major (`## v21 (2026-07-25)` over
    /// `## v20 (2026-03-24)`), written before the release: relctl read no version in a heading
    /// naming a major alone and proposed 20.2.2. The heading naming the next major is its floor.
    @Test func aChangelogHeadingNamingTheNextMajorAloneIsItsFloor() throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"release-it\",\n  \"version\": \"\(version)\"\n}\n" }
        let v20 = "# Changelog\n\nThis document lists breaking changes for each major release.\n\n## v20 (2026-03-24)\n\n- Node 18 dropped.\n\n## v19 (2025-05-01)\n\n- Old hooks removed.\n"
        try repo.commit("Release 20.2.1", files: ["package.json": package("20.2.1"), "CHANGELOG.md": v20])
        try repo.git("tag", "20.2.1")
        try repo.commit("Fix a prompt", files: ["lib/a.js": "a\n"])
        try repo.commit(
            "Update changelog for v21",
            files: ["CHANGELOG.md": v20.replacingOccurrences(of: "## v20", with: "## v21 (2026-07-25)\n\n- Node 20 dropped.\n\n## v20")])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "21.0.0", "\(bump)")
    }
}
