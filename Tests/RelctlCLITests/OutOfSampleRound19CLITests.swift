import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the nineteenth out-of-sample round (session 77) and the regression set's leftovers found
/// reading real repositories, each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound19CLITests {
    /// `relctl init` run in a member's folder: the folder and the relctl.toml written there.
    static func initialise(_ repo: GitRepository, member folder: String) throws -> (URL, String) {
        let member = repo.url.appendingPathComponent(folder)
        let result = try relctl(["init", "--quiet"], in: member)
        #expect(result.status == 0, "\(result)")
        return (member, try repo.directory.read(folder + "/relctl.toml"))
    }

    /// go-zero released `feat:` ranges as 1.8.x/1.9.x patches seven times to two minors, unocss
    /// six to two: relctl proposed the next minor each time (regression set: go-zero 3/10, unocss
    /// 5/10). Where the typed history at 1.0.0 and above shows feats released as patches (three at
    /// least, three for each feat minor), init writes `features = "patch"`; a project whose feats
    /// made minors and whose fixes made patches keeps SemVer's minor. A breaking change is still a major.
    @Test(arguments: [true, false])
    func typedHistoryShowingFeatPatchesKeepsThePatch(patches: Bool) throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"demo\",\n  \"version\": \"\(version)\"\n}\n" }
        try repo.commit("feat: start", files: ["package.json": package("1.0.0"), "src/a.js": "0\n"])
        try repo.git("tag", "v1.0.0")
        // Each step: (subject of its one change, version released).
        let steps: [(String, String)] =
            patches
            ? [("feat: an option", "1.0.1"), ("feat: a flag", "1.0.2"), ("feat: a mode", "1.1.0"),
               ("feat: a hook", "1.1.1"), ("fix: a crash", "1.1.2"), ("feat: a format", "1.1.3")]
            : [("feat: an option", "1.1.0"), ("fix: a typo", "1.1.1"), ("feat: a flag", "1.2.0"),
               ("fix: a crash", "1.2.1"), ("feat: a mode", "1.3.0"), ("fix: a leak", "1.3.1")]
        for (index, (subject, version)) in steps.enumerated() {
            try repo.commit(subject, files: ["src/a.js": "\(index + 1)\n"])
            try repo.commit("chore: release v\(version)", files: ["package.json": package(version)])
            try repo.git("tag", "v\(version)")
        }
        try repo.commit("feat: a new command", files: ["src/b.js": "b\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("features = \"patch\"") == patches, "\(config)")
        let latest = steps.last?.1 ?? ""
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (patches ? "1.1.4" : "1.4.0"), "\(bump) after \(latest)")
        try repo.commit("feat!: drop the old command", files: ["src/b.js": "c\n"])
        let major = try relctl(["bump"], in: repo.url)
        #expect(major.status == 0 && major.stdout == "2.0.0\n", "\(major)")
    }
}

extension OutOfSampleRound19CLITests {
    /// PyGithub, date-fns and cheerio write no change types: "Add support for …", "Add
    /// `intlFormatDistance`" went into minors, fixes into patches, and relctl proposed a patch for
    /// every untyped range (PyGithub 3/10). Where the untyped releases show subjects adding
    /// something released as minors (three at least, three for each released as a patch), init
    /// writes `untyped-adds = "minor"`; a project that ships such subjects in patches keeps the patch.
    @Test(arguments: [true, false])
    func untypedHistoryShowingAddsAsMinorsGivesAMinor(minors: Bool) throws {
        let repo = try GitRepository()
        func setup(_ version: String) -> String { "from setuptools import setup\nsetup(name=\"demo\", version=\"\(version)\")\n" }
        try repo.commit("Initial import", files: ["setup.py": setup("2.0.0"), "demo.py": "0\n"])
        try repo.git("tag", "v2.0.0")
        let steps: [(String, String)] =
            minors
            ? [("Add support for tokens", "2.1.0"), ("Fix the crash on empty input", "2.1.1"), ("Allow a custom base URL", "2.2.0"),
               ("Handle timeouts", "2.2.1"), ("Implement the search API", "2.3.0")]
            : [("Add support for tokens", "2.0.1"), ("Allow a custom base URL", "2.0.2"), ("Implement the search API", "2.0.3"),
               ("Fix the crash on empty input", "2.0.4"), ("Handle timeouts", "2.0.5")]
        for (index, (subject, version)) in steps.enumerated() {
            try repo.commit(subject, files: ["demo.py": "\(index + 1)\n"])
            try repo.commit("Release \(version)", files: ["setup.py": setup(version)])
            try repo.git("tag", "v\(version)")
        }
        try repo.commit("Add a retry option (#42)", files: ["retry.py": "r\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("untyped-adds = \"minor\"") == minors, "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == (minors ? "2.4.0" : "2.0.6"), "\(bump)")
        if minors {
            #expect(bump.stderr.contains("(Add a retry option (#42)) adds something"), "\(bump)")
            // A fix alone is still a patch.
            try repo.git("tag", "v2.4.0")
            try repo.commit("Fix the retry count", files: ["retry.py": "s\n"])
            let fix = try relctl(["bump"], in: repo.url)
            #expect(fix.status == 0 && fix.stdout == "2.4.1\n", "\(fix)")
        }
    }
}

extension OutOfSampleRound19CLITests {
    /// Home Assistant's supervisor: 99 SemVer-era tags `0.1` … `0.117`, then 273 calendar tags of
    /// three numbers (`2026.06.0`). The old two-number tags outvoted the calendar ones, and a
    /// month's first release was tagged `2026.07` (3 tag spellings of round 19). Only
    /// calendar-shaped tags show how the calendar is spelled.
    @Test func onlyCalendarTagsSayWhetherAZeroThirdNumberIsWritten() throws {
        let repo = try GitRepository()
        try repo.commit(
            "Initial", files: ["relctl.toml": "[project]\nname = \"super\"\ntag-format = \"{version}\"\nversion-scheme = \"calver\"\n"],
            date: "2017-01-01T00:00:00Z")
        for minor in 1...8 {
            try repo.commit("Release 0.\(minor)", files: ["v.txt": "0.\(minor)\n"], date: "2017-0\(minor)-02T00:00:00Z")
            try repo.git("tag", "0.\(minor)")
        }
        for (version, date) in [("2026.05.0", "2026-05-06"), ("2026.05.1", "2026-05-20"), ("2026.06.0", "2026-06-03")] {
            try repo.commit("Release \(version)", files: ["v.txt": version + "\n"], date: date + "T00:00:00Z")
            try repo.git("tag", version)
        }
        try repo.commit("Fix the updater", files: ["u.txt": "u\n"], date: "2026-07-01T00:00:00Z")
        let row = try OutOfSampleRound15CLITests.rows(repo)["."]
        #expect(row?["tag"] as? String == "2026.07.0", "\(String(describing: row))")
    }
}

extension OutOfSampleRound19CLITests {
    /// npm/cli's release-please-config.json leaves `workspaces` and `.github` out of the root
    /// package's changes (`exclude-paths`); init did not read it, and 14 `fix!:` commits touching
    /// a workspace's package.json and its CI workflow made the root 11.0.0 where release-please
    /// made 10.9.0. init now writes them as the root's `[project] exclude`.
    @Test func releasePleasesExcludePathsLeaveTheRootsChanges() throws {
        let repo = try OutOfSampleRound15CLITests.sdkWorkspace(releasePlease: true, rootTags: 1)
        try repo.commit(
            "chore: release-please config",
            files: [
                "release-please-config.json":
                    "{\n  \"packages\": {\n    \".\": {\"exclude-paths\": [\"packages\", \".github/\"]},\n    \"packages/aws-sdk\": {}\n  }\n}\n"
            ])
        try repo.commit(
            "fix!: align aws-sdk to the new node range",
            files: ["packages/aws-sdk/package.json": "{\n  \"name\": \"@acme/aws-sdk\",\n  \"version\": \"0.2.0\",\n  \"engines\": {\"node\": \">=20\"}\n}\n", ".github/workflows/aws.yml": "on: push\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("exclude = [\"packages/**\", \".github/**\"]"), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["."]?["next"] as? String == "0.3.1", "\(rows)")
        #expect(rows["packages/aws-sdk"]?["reason"] as? String == "breaking", "the member keeps its change: \(rows)")
    }
}

extension OutOfSampleRound19CLITests {
    /// descheduler tags its application (`v0.32.0`) first and its chart, whose version follows the
    /// application's, days later (`descheduler-helm-chart-0.32.0`). At the chart's release point,
    /// init in `charts/descheduler` took the 33 bare tags, read 0.32.0 as released and proposed
    /// 0.33.0 (4 points of round 19). The chart's own series is the one named after it whose newest
    /// release is a step below the version Chart.yaml holds.
    @Test func aChartTaggedAfterItsApplicationKeepsItsOwnSeries() throws {
        let repo = try GitRepository()
        func chart(_ version: String) -> String { "apiVersion: v2\nname: sched\nversion: \(version)\nappVersion: \(version)\n" }
        try repo.commit("Initial", files: ["go.mod": "module example.com/sched\n", "main.go": "package main\n", "charts/sched/Chart.yaml": chart("0.1.0")])
        for minor in 1...3 {
            let version = "0.\(minor).0"
            try repo.commit("Release \(version)", files: ["charts/sched/Chart.yaml": chart(version), "main.go": "package main\n// \(minor)\n"])
            try repo.git("tag", "v\(version)")
            if minor < 3 { try repo.git("tag", "sched-helm-chart-\(version)") }
        }
        try repo.commit("Chart: a new image value", files: ["charts/sched/values.yaml": "image: sched\n"])
        let (member, config) = try Self.initialise(repo, member: "charts/sched")
        #expect(config.contains("tag-format = \"{project}-helm-chart-{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: member)
        let rows = try BacktestFindingsCLITests.field(plan.stdout, "members") as? [[String: Any]] ?? []
        #expect(rows.first?["current"] as? String == "0.2.0", "\(plan)")
        #expect(rows.first?["next"] as? String == "0.3.0", "\(plan)")
        #expect(rows.first?["tag"] as? String == "sched-helm-chart-0.3.0", "\(plan)")
    }
}

extension OutOfSampleRound19CLITests {
    /// sigstore tags its root module (`v1.10.9`) and, on the same commits, its nested KMS modules
    /// (`pkg/signature/kms/aws/v1.10.9`). The 60 bare tags outvoted the folder's 38 twins, and init
    /// in the module's folder wrote `v{version}`. Go reads a nested module's versions from its
    /// folder's tags alone, so those are its series however many bare tags stand beside them.
    @Test func aNestedGoModuleKeepsItsFolderTagsBesideTheRootsTwins() throws {
        let repo = try GitRepository()
        try repo.commit(
            "Initial",
            files: ["go.mod": "module example.com/sig\n", "sig.go": "package sig\n", "kms/aws/go.mod": "module example.com/sig/kms/aws\n", "kms/aws/aws.go": "package aws\n"])
        for minor in 0...2 {
            try repo.commit("Release 1.\(minor).0", files: ["sig.go": "package sig\n// \(minor)\n", "kms/aws/aws.go": "package aws\n// \(minor)\n"])
            try repo.git("tag", "v1.\(minor).0")
            try repo.git("tag", "kms/aws/v1.\(minor).0")
        }
        try repo.commit("fix: root only", files: ["sig.go": "package sig\n// root\n"])
        try repo.git("tag", "v1.3.0")
        try repo.commit("fix: aws retries", files: ["kms/aws/aws.go": "package aws\n// retries\n"])
        let (member, config) = try Self.initialise(repo, member: "kms/aws")
        #expect(config.contains("tag-format = \"kms/aws/v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: member)
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "1.2.1", "\(bump)")
    }
}

extension OutOfSampleRound19CLITests {
    /// facet's release-plz.toml puts its 17 crates in one `version_group`: a fix in `facet-pretty`
    /// released them all (`facet-v0.46.4`), and relctl, without the group, proposed nothing for
    /// `facet` (3 points of round 19). init writes the group as a `[[workspace.group]]`, as it does
    /// changesets' `fixed` groups; a crate outside it releases on its own.
    @Test func releasePlzVersionGroupsAreWorkspaceGroups() throws {
        let repo = try GitRepository()
        func crate(_ name: String) -> String { "[package]\nname = \"\(name)\"\nversion = \"0.4.0\"\nedition = \"2021\"\n" }
        var files = [
            "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n",
            "release-plz.toml":
                "[workspace]\nchangelog_update = false\n\n[[package]]\nname = \"shape\"\nversion_group = \"shape\"\n\n[[package]]\nname = \"shape-pretty\"\nversion_group = \"shape\"\n",
        ]
        for name in ["shape", "shape-pretty", "loader"] {
            files["crates/\(name)/Cargo.toml"] = crate(name)
            files["crates/\(name)/src/lib.rs"] = "\n"
        }
        try repo.commit("chore: release", files: files)
        for name in ["shape", "shape-pretty", "loader"] { try repo.git("tag", "\(name)-v0.4.0") }
        try repo.commit("fix(shape-pretty): align nested values", files: ["crates/shape-pretty/src/lib.rs": "// aligned\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("[[workspace.group]]\nname = \"shape\"\nmembers = [\"shape\", \"shape-pretty\"]"), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/shape"]?["next"] as? String == "0.4.1", "\(rows)")
        #expect(rows["crates/shape-pretty"]?["next"] as? String == "0.4.1", "\(rows)")
        #expect(rows["crates/loader"]?["next"] == nil || rows["crates/loader"]?["next"] is NSNull, "\(rows)")
    }
}

extension OutOfSampleRound19CLITests {
    /// react-pdf's renderer: `changeset version` wrote 4.4.0 into package.json and `## 4.4.0` into
    /// its changelog, published it untagged, and one `patch` changeset was pending: the changelog
    /// heading was read as a minor above 4.3.3 and stepped again from 4.4.0 (4.5.0); the project
    /// released 4.4.1. The heading is the notes of the version the manifest holds.
    @Test func aChangelogHeadingOfTheVersionedReleaseIsNotTheNextsSize() throws {
        let repo = try GitRepository()
        func package(_ version: String) -> String { "{\n  \"name\": \"renderer\",\n  \"version\": \"\(version)\"\n}\n" }
        let config = """
            [project]
            name = "renderer"
            tag-format = "v{version}"

            [[version]]
            path = "package.json"

            [versioning]
            fragments = "changesets"
            changelog = "CHANGELOG.md"

            """
        try repo.commit(
            "chore: release 4.3.3",
            files: [
                "package.json": package("4.3.3"), "relctl.toml": config, ".changeset/config.json": "{}\n",
                "CHANGELOG.md": "# renderer\n\n## 4.3.3\n\n### Patch Changes\n\n- a fix\n", "src/a.js": "a\n",
            ])
        try repo.git("tag", "v4.3.3")
        try repo.commit("feat: page labels", files: ["src/a.js": "b\n"])
        try repo.commit(
            "chore: version packages",
            files: [
                "package.json": package("4.4.0"),
                "CHANGELOG.md": "# renderer\n\n## 4.4.0\n\n### Minor Changes\n\n- page labels\n\n## 4.3.3\n\n### Patch Changes\n\n- a fix\n",
            ])
        try repo.commit(
            "fix: a page break", files: ["src/a.js": "c\n", ".changeset/small-rocks.md": "---\n\"renderer\": patch\n---\n\nA page break.\n"])
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "4.4.1", "\(bump)")
    }
}
