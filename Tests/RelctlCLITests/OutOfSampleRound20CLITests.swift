import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the twentieth and twenty-first out-of-sample rounds (session 78) and round 19's leftovers
/// found reading real repositories, each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound20CLITests {
    /// matrix-rust-sdk keeps a changelog in each crate, written ahead (`## [Unreleased] -
    /// ReleaseDate`, `[**breaking**]` entries under `### Features`), with untyped or feat-only
    /// subjects. A single project's init reads such a file; a workspace's did not, so matrix-sdk's
    /// breaking ranges were proposed as 0.x patches (4 points of round 19). Where members keep
    /// their own changelog ahead of their latest release, init writes `[versioning] changelog`
    /// with that name, read in each member's folder; a member whose file says nothing ahead keeps
    /// its commits' level.
    @Test func membersChangelogsWrittenAheadGiveTheirLevels() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        try repo.commit(
            "Initial import",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/core/Cargo.toml": crate("core", "1.0.0"), "crates/core/src/lib.rs": "0\n",
                "crates/cli/Cargo.toml": crate("cli", "1.0.0"), "crates/cli/src/main.rs": "0\n",
            ])
        try repo.git("tag", "core-v1.0.0")
        try repo.git("tag", "cli-v1.0.0")
        try repo.commit("Tweak the parser", files: ["crates/core/src/lib.rs": "1\n"])
        try repo.commit(
            "Release core 1.1.0",
            files: [
                "crates/core/Cargo.toml": crate("core", "1.1.0"),
                "crates/core/CHANGELOG.md": "# Changelog\n\n## [1.1.0] - 2026-01-02\n\n### Fixed\n\n- The parser.\n",
            ])
        try repo.git("tag", "core-v1.1.0")
        try repo.commit("Tidy the output", files: ["crates/cli/src/main.rs": "1\n"])
        try repo.commit("Release cli 1.0.1", files: ["crates/cli/Cargo.toml": crate("cli", "1.0.1")])
        try repo.git("tag", "cli-v1.0.1")
        // Written ahead: core's next release adds an API; cli's changelog has nothing ahead.
        try repo.commit(
            "Rework the reader",
            files: [
                "crates/core/src/lib.rs": "2\n",
                "crates/core/CHANGELOG.md":
                    "# Changelog\n\n## [Unreleased] - ReleaseDate\n\n### Features\n\n- `Reader::peek` is a new method.\n\n"
                    + "## [1.1.0] - 2026-01-02\n\n### Fixed\n\n- The parser.\n",
            ])
        try repo.commit("Rework the printer", files: ["crates/cli/src/main.rs": "2\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("[workspace]"), "\(config)")
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        #expect(config.contains("crates/core/CHANGELOG.md:5"), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/core"]?["next"] as? String == "1.2.0", "\(rows)")
        #expect(rows["crates/cli"]?["next"] as? String == "1.0.2", "\(rows)")
    }
}

extension OutOfSampleRound20CLITests {
    /// cloudnative-pg backports features to each `release-1.N` branch and ships them in its first
    /// patch (`v1.25.1` with 8 `feat`s, `v1.26.1` with 3, `v1.27.1` with 14): on a young line with
    /// no patch of its own yet, `plan` refused the backported `feat` (exit 1, 4 points of round
    /// 20). init reads the project's other minor lines' first patches and writes
    /// `keep-in-range = true` where most of them shipped more than a patch's changes; where they
    /// shipped fixes alone, the refusal stands.
    @Test(arguments: [true, false])
    func aYoungLineKeepsItsRangeWhereTheOtherLinesShippedFeaturesInPatches(siblingsBackportFeatures: Bool) throws {
        let repo = try GitRepository()
        var day = 1
        func commit(_ subject: String, _ files: [String: String]) throws {
            try repo.commit(subject, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
            day += 1
        }
        try commit("Initial import", ["go.mod": "module example.com/op\n\ngo 1.22\n", "op.go": "0\n"])
        try repo.git("tag", "v1.0.0")
        for minor in 1...3 {
            // Each line branches from its .0 and ships its first patch from a backport.
            try repo.git("checkout", "-q", "-b", "release-1.\(minor - 1)", "v1.\(minor - 1).0")
            try commit(siblingsBackportFeatures ? "feat: backport the \(minor) option (#\(minor))" : "fix: the \(minor) crash (#\(minor))",
                ["line\(minor).go": "l\n"])
            try repo.git("tag", "v1.\(minor - 1).1")
            try repo.git("checkout", "-q", "main")
            try commit("feat: the \(minor) feature", ["op.go": "\(minor)\n"])
            try repo.git("tag", "v1.\(minor).0")
        }
        try commit("feat: the next feature", ["op.go": "next\n"])
        try repo.git("tag", "v1.4.0")
        try repo.git("checkout", "-q", "-b", "release-1.3", "v1.3.0")
        try commit("feat(docs): add a manual sync trigger (#9)", ["docs.go": "d\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("range = \"1.3.x\""), "\(config)")
        #expect(
            config.contains("keep-in-range = true   # the project's other lines shipped more than a patch's changes in their first patch (v1.2.1, v1.1.1, v1.0.1)")
                == siblingsBackportFeatures, "\(config)")
        let bump = try relctl(["bump"], in: repo.url)
        if siblingsBackportFeatures {
            #expect(bump.status == 0 && bump.stdout == "1.3.1\n", "\(bump)")
        } else {
            #expect(bump.status == 1 && bump.stderr.contains("releases within 1.3.x, but commit"), "\(bump)")
        }
    }
}

extension OutOfSampleRound20CLITests {
    /// actions-runner-controller's old chart shipped `feat`s as 0.x patches; its
    /// gha-runner-scale-set chart, with untyped commits, shows no habit, yet init wrote the old
    /// chart's `zero-major = "cargo"` for the whole workspace and a feat range became a patch
    /// (2 points of round 20). Outside Cargo another member must show the habit too; in a Cargo
    /// workspace no member may show feats released as minors (matrix-rust-sdk's FFI crate
    /// against matrix-sdk).
    @Test(arguments: [true, false])
    func aZeroMajorRuleOfOneChartIsNotTheWorkspaces(secondChartShowsIt: Bool) throws {
        let repo = try GitRepository()
        func chart(_ name: String, _ version: String) -> String { "apiVersion: v2\nname: \(name)\nversion: \(version)\n" }
        var day = 1
        func commit(_ subject: String, _ files: [String: String]) throws {
            try repo.commit(subject, files: files, date: String(format: "2026-02-%02dT10:00:00Z", day))
            day += 1
        }
        try commit(
            "Initial charts",
            ["charts/old/Chart.yaml": chart("old", "0.1.0"), "charts/old/values.yaml": "0\n",
             "charts/new/Chart.yaml": chart("new", "0.1.0"), "charts/new/values.yaml": "0\n"])
        try repo.git("tag", "old-0.1.0")
        try repo.git("tag", "new-0.1.0")
        // The old chart: feats released as patches, twice, and a breaking change as a minor.
        for (index, (subject, version)) in [("feat: a value", "0.1.1"), ("feat: a label", "0.1.2"), ("feat!: renamed", "0.2.0"), ("feat: a port", "0.2.1")].enumerated() {
            try commit(subject, ["charts/old/values.yaml": "\(index + 1)\n"])
            try commit("Release old \(version)", ["charts/old/Chart.yaml": chart("old", version)])
            try repo.git("tag", "old-\(version)")
        }
        // The new chart: untyped fixes as patches, or (when it shows the habit too) feats as patches.
        let steps =
            secondChartShowsIt
            ? [("feat: an env", "0.1.1"), ("feat: a probe", "0.1.2"), ("feat!: values moved", "0.2.0")]
            : [("Fix the template", "0.1.1"), ("Trim helpers", "0.1.2"), ("Clarify the docs", "0.1.3")]
        for (index, (subject, version)) in steps.enumerated() {
            try commit(subject, ["charts/new/values.yaml": "\(index + 1)\n"])
            try commit("Prepare new \(version)", ["charts/new/Chart.yaml": chart("new", version)])
            try repo.git("tag", "new-\(version)")
        }
        try commit("feat: allow namespace overrides (#37)", ["charts/new/values.yaml": "ns\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("[workspace]"), "\(config)")
        #expect(config.contains("zero-major = \"cargo\"") == secondChartShowsIt, "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        let latest = steps.last?.1 ?? ""
        let expected = secondChartShowsIt ? "0.2.1" : "0.2.0"
        #expect(rows["charts/new"]?["next"] as? String == expected, "\(rows) after \(latest)")
    }
}

extension OutOfSampleRound20CLITests {
    /// matrix-rust-sdk: its FFI bindings crate shipped `feat`s as 0.x patches, matrix-sdk its feat
    /// ranges as minors; init wrote the bindings' `zero-major = "cargo"` for every crate. In a
    /// Cargo workspace the rule is written only where no other member read shows feats released
    /// as minors.
    @Test func aCargoMemberShippingFeatMinorsKeepsTheWorkspaceOffCargosRule() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
        }
        var day = 1
        func commit(_ subject: String, _ files: [String: String]) throws {
            try repo.commit(subject, files: files, date: String(format: "2026-03-%02dT10:00:00Z", day))
            day += 1
        }
        try commit(
            "Initial import",
            ["Cargo.toml": "[workspace]\nmembers = [\"bindings/*\", \"crates/*\"]\n",
             "bindings/ffi/Cargo.toml": crate("ffi", "0.1.0"), "bindings/ffi/src/lib.rs": "0\n",
             "crates/sdk/Cargo.toml": crate("sdk", "0.1.0"), "crates/sdk/src/lib.rs": "0\n"])
        try repo.git("tag", "ffi-0.1.0")
        try repo.git("tag", "sdk-0.1.0")
        for (index, (subject, version)) in [("feat: a call", "0.1.1"), ("feat: a type", "0.1.2"), ("feat!: renamed", "0.2.0"), ("feat: a hook", "0.2.1"), ("fix: a leak", "0.2.2")].enumerated() {
            try commit(subject, ["bindings/ffi/src/lib.rs": "\(index + 1)\n"])
            try commit("Release ffi \(version)", ["bindings/ffi/Cargo.toml": crate("ffi", version)])
            try repo.git("tag", "ffi-\(version)")
        }
        for (index, (subject, version)) in [("feat: rooms", "0.2.0"), ("fix: a panic", "0.2.1"), ("feat: threads", "0.3.0"), ("feat: spaces", "0.4.0")].enumerated() {
            try commit(subject, ["crates/sdk/src/lib.rs": "\(index + 1)\n"])
            try commit("Release sdk \(version)", ["crates/sdk/Cargo.toml": crate("sdk", version)])
            try repo.git("tag", "sdk-\(version)")
        }
        try commit("feat: reactions", ["crates/sdk/src/lib.rs": "r\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("[workspace]"), "\(config)")
        #expect(!config.contains("zero-major"), "\(config)")
        let rows = try OutOfSampleRound15CLITests.rows(repo)
        #expect(rows["crates/sdk"]?["next"] as? String == "0.5.0", "\(rows)")
    }
}

extension OutOfSampleRound20CLITests {
    /// cloud-init numbers its releases by year and count (`25.1`, `25.2`, `25.3`) and patches
    /// them on their own branches (`25.1.1` … `25.1.4`). Where the patches filled the ten newest
    /// tags, init saw four calendar tags in ten and wrote SemVer: 25.3 was proposed as 26.0.0,
    /// and `25.2` tagged `25.2.0` (round 20: 1 point, 7 tag spellings). A patch of a calendar
    /// line's opener is a calendar version too.
    @Test func patchesOfCalendarLinesDoNotOutvoteTheCalendar() throws {
        let repo = try GitRepository()
        try repo.commit("Initial import", files: ["setup.py": "from setuptools import setup\nsetup(name=\"ci\")\n"], date: "2023-01-10T10:00:00Z")
        var serial = 0
        func release(_ tag: String, on date: String) throws {
            serial += 1
            try repo.commit("Release \(tag)", files: ["ci/\(serial).py": "\(serial)\n"], date: date + "T10:00:00Z")
            try repo.git("tag", tag)
        }
        for (tag, date) in [("23.1", "2023-02-20"), ("23.2", "2023-05-10"), ("23.3", "2023-08-28"), ("23.4", "2023-12-05")] {
            try release(tag, on: date)
        }
        // Each line's patches on its own branch, as cloud-init makes them.
        try release("24.1", on: "2024-02-20")
        try repo.git("checkout", "-q", "-b", "24.1.x")
        for patch in 1...4 { try release("24.1.\(patch)", on: "2024-0\(2 + patch)-01") }
        try repo.git("checkout", "-q", "-")
        try release("24.2", on: "2024-06-20")
        try repo.git("checkout", "-q", "-b", "24.2.x")
        for patch in 1...3 { try release("24.2.\(patch)", on: "2024-07-0\(patch)") }
        try repo.git("checkout", "-q", "-")
        try repo.commit("Add a datasource for the new cloud", files: ["ci/new.py": "n\n"], date: "2024-08-15T10:00:00Z")
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")
        let row = try OutOfSampleRound15CLITests.rows(repo)["."]
        #expect(row?["next"] as? String == "24.3", "\(String(describing: row))")
        #expect(row?["tag"] as? String == "24.3", "\(String(describing: row))")
    }
}

extension OutOfSampleRound20CLITests {
    /// near-sdk-rs: release-plz tagged `near-sdk-macros-v5.29.0` half an hour before
    /// `near-sdk-v5.29.0`; at the commit between, init in `near-sdk/` took the macros crate's
    /// series because its newest tag names the version the workspace's Cargo.toml holds, and
    /// proposed nothing (round 20). A package named after the project with more words is
    /// another package when the project's own series has tags.
    @Test func aSiblingCratesTagNamingTheHeldVersionIsNotTheProjectsSeries() throws {
        let repo = try GitRepository()
        func crate(_ name: String) -> String { "[package]\nname = \"\(name)\"\nversion.workspace = true\nedition = \"2021\"\n" }
        func root(_ version: String) -> String {
            "[workspace]\nmembers = [\"near-sdk\", \"near-sdk-macros\"]\n\n[workspace.package]\nversion = \"\(version)\"\n"
        }
        try repo.commit(
            "chore: release v5.28.0",
            files: ["Cargo.toml": root("5.28.0"), "near-sdk/Cargo.toml": crate("near-sdk"), "near-sdk/src/lib.rs": "0\n",
                    "near-sdk-macros/Cargo.toml": crate("near-sdk-macros"), "near-sdk-macros/src/lib.rs": "0\n"])
        try repo.git("tag", "near-sdk-v5.28.0")
        try repo.git("tag", "near-sdk-macros-v5.28.0")
        try repo.commit("fix: a panic", files: ["near-sdk/src/lib.rs": "1\n"])
        try repo.commit("chore: release v5.28.1", files: ["Cargo.toml": root("5.28.1")])
        try repo.git("tag", "near-sdk-v5.28.1")
        try repo.git("tag", "near-sdk-macros-v5.28.1")
        try repo.commit("feat: yield execution", files: ["near-sdk/src/lib.rs": "2\n"])
        // release-plz's version bump, and the macros crate tagged on it before the release commit.
        try repo.commit("chore: release v5.29.0 (#1357)", files: ["Cargo.toml": root("5.29.0")])
        try repo.git("tag", "near-sdk-macros-v5.29.0")
        let (member, config) = try OutOfSampleRound19CLITests.initialise(repo, member: "near-sdk")
        #expect(config.contains("tag-format = \"{project}-v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: member)
        #expect(bump.status == 0, "\(bump)")
        #expect(try BacktestFindingsCLITests.field(bump.stdout, "next") as? String == "5.29.0", "\(bump)")
    }
}

extension OutOfSampleRound20CLITests {
    /// go-elasticsearch releases its `9.2` branch with release-please's `"versioning":
    /// "always-bump-patch"` (`.github/release-please-config.json`): backported `feat`s ship as
    /// 9.2.x, and `plan` refused them (exit 1, 4 points of round 21). init reads the key on a
    /// maintenance branch and writes `keep-in-range = true`.
    @Test func releasePleaseAlwaysBumpPatchKeepsTheBranchInRange() throws {
        let repo = try GitRepository()
        try repo.commit(
            "Initial import",
            files: ["go.mod": "module example.com/es\n\ngo 1.22\n", "es.go": "0\n",
                    ".github/release-please-config.json": "{\"packages\": {\".\": {\"release-type\": \"go\", \"versioning\": \"always-bump-patch\"}}}\n"],
            date: "2026-01-01T10:00:00Z")
        try repo.git("tag", "v9.2.0")
        try repo.commit("feat: a new API", files: ["es.go": "1\n"], date: "2026-01-02T10:00:00Z")
        try repo.git("tag", "v9.3.0")
        try repo.git("checkout", "-q", "-b", "9.2", "v9.2.0")
        try repo.commit("feat: Add queue size multiplier (#1)", files: ["queue.go": "q\n"], date: "2026-01-03T10:00:00Z")
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("range = \"9.2.x\"\nkeep-in-range = true   # .github/release-please-config.json: \"versioning\": \"always-bump-patch\""), "\(config)")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "9.2.1\n", "\(bump)")
    }
}

extension OutOfSampleRound20CLITests {
    /// PyGithub's `release-v2-6`: its untyped main line shipped "Add …" subjects as minors, so
    /// once init on the maintenance branch read the commits without the main line's cadence, it
    /// wrote `untyped-adds = "minor"` there, and the branch's "Add `CodeSecurityConfigRepository`"
    /// made 2.7.0, outside the line (exit 1; the regression run's −1). The reading is the main
    /// line's: not written on a maintenance line.
    @Test func untypedAddsAreNotWrittenOnAMaintenanceLine() throws {
        let repo = try GitRepository()
        func setup(_ version: String) -> String { "from setuptools import setup\nsetup(name=\"demo\", version=\"\(version)\")\n" }
        var day = 1
        func commit(_ subject: String, _ files: [String: String]) throws {
            try repo.commit(subject, files: files, date: String(format: "2026-04-%02dT10:00:00Z", day))
            day += 1
        }
        try commit("Initial import", ["setup.py": setup("2.0.0"), "demo.py": "0\n"])
        try repo.git("tag", "v2.0.0")
        for (index, (subject, version)) in [("Add support for tokens", "2.1.0"), ("Fix the crash on empty input", "2.1.1"),
            ("Allow a custom base URL", "2.2.0"), ("Handle timeouts", "2.2.1"), ("Implement the search API", "2.3.0")].enumerated() {
            try commit(subject, ["demo.py": "\(index + 1)\n"])
            try commit("Release \(version)", ["setup.py": setup(version)])
            try repo.git("tag", "v\(version)")
        }
        try commit("Add the rules API", ["rules.py": "r\n"])
        try commit("Release 2.4.0", ["setup.py": setup("2.4.0")])
        try repo.git("tag", "v2.4.0")
        try repo.git("checkout", "-q", "-b", "release-v2-3", "v2.3.0")
        try commit("Add `CodeSecurityConfigRepository` returned by its getter (#3219)", ["security.py": "s\n"])
        let config = try OutOfSampleRound15CLITests.initialise(repo)
        #expect(config.contains("range = \"2.3.x\""), "\(config)")
        #expect(!config.contains("untyped-adds"), "\(config)")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "2.3.1\n", "\(bump)")
    }
}
