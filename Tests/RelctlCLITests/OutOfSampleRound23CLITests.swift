import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the twenty-third out-of-sample round (session 79) found and session 80 read: each on a
/// generated repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound23CLITests {
    /// A Go module tagging `releases` (version, commit date), each on its own commit.
    static func goModule(_ releases: [(String, String)], module: String = "github.com/shirou/gopsutil/v4") throws
        -> GitRepository
    {
        let repository = try GitRepository()
        try repository.commit("Initial import", files: ["go.mod": "module \(module)\n\ngo 1.22\n"], date: "2023-01-05T10:00:00Z")
        for (index, (version, day)) in releases.enumerated() {
            let date = day + "T10:00:00Z"
            try repository.commit("Fix a reading (#\(index))", files: ["cpu.go": "\(index)\n"], date: date)
            try repository.git(
                ["tag", "-a", "v" + version, "-m", version], environment: ["GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date])
        }
        return repository
    }

    /// gopsutil's `vMAJOR.YY.MM`: each monthly release named for the year and the month it ends
    /// (`v4.26.2` tagged 2026-02-27; `v4.24.9` on 2024-10-01, the month before). relctl read them
    /// as SemVer and proposed `4.27.0` for a feat in March 2026 (4 points of round 23). `init`
    /// writes `cadence = "year-month"` from a year of releases that span two years; the next
    /// release is the major, then the year and month of the commit released, a feat or not.
    @Test func majorYearMonthVersions() throws {
        var releases = [("4.24.12", "2024-12-31")]
        releases += (1...12).map { month in ("4.25.\(month)", String(format: "2025-%02d-28", month)) }
        releases[9] = ("4.25.9", "2025-10-01")
        let repository = try Self.goModule(releases)
        try repository.commit("feat: read the sensors (#99)", files: ["sensors.go": "s\n"], date: "2026-01-20T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("cadence = \"year-month\""), "\(config)")
        let (result, next) = try VersionIntentCLITests.bump(repository)
        #expect(next == "4.26.1", "\(result)")
        let planned = try MemberPlanDocument.run(in: repository.url).members.first
        #expect(planned?.next == "4.26.1" && planned?.tag == "v4.26.1", "\(String(describing: planned))")

        // A second release in a month the latest already names is its next patch.
        try repository.git(["tag", "-a", "v4.26.1", "-m", "4.26.1"], environment: ["GIT_COMMITTER_DATE": "2026-01-21T10:00:00Z"])
        try repository.commit("Fix the sensors (#100)", files: ["sensors.go": "t\n"], date: "2026-01-25T10:00:00Z")
        #expect(try VersionIntentCLITests.bump(repository).1 == "4.26.2")
    }

    /// A SemVer project at minor 25 in 2025 whose monthly patches happen to match their months
    /// (`v1.25.1` in January … `v1.25.6` in June) keeps SemVer: the releases do not span two years.
    @Test func monthlyPatchesOfOneYearAreNoCalendar() throws {
        let releases = (1...6).map { month in ("1.25.\(month)", String(format: "2025-%02d-15", month)) }
        let repository = try Self.goModule(releases, module: "example.com/tool")
        try repository.commit("feat: a flag (#9)", files: ["flag.go": "f\n"], date: "2025-09-20T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(!config.contains("year-month"), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "1.26.0")
    }

    /// A Python project named `name` tagging `releases` (version, day) as `vVERSION`, each on its
    /// own commit of that day.
    static func pythonReleases(_ releases: [(String, String)], name: String) throws -> GitRepository {
        let repository = try GitRepository()
        for (version, day) in releases {
            let date = day + "T10:00:00Z"
            try repository.commit(
                "Release \(version)", files: ["pyproject.toml": "[project]\nname = \"\(name)\"\ndynamic = [\"version\"]\n", "v.txt": version],
                date: date)
            try repository.git(["tag", "v" + version], environment: ["GIT_COMMITTER_DATE": date])
        }
        return repository
    }

    /// A Python project tagging `versions` (two numbers each), one commit a release.
    static func twoNumberProject(_ versions: [String]) throws -> GitRepository {
        let repository = try GitRepository()
        for version in versions {
            try repository.commit(
                "Version \(version)", files: ["pyproject.toml": "[project]\nname = \"weasyprint\"\nversion = \"\(version)\"\n"])
            try repository.git("tag", "v" + version)
        }
        return repository
    }

    /// WeasyPrint's two-number versions (`v64.1` → `v65.0`): a release of fixes steps the second
    /// number, one with features the first. relctl read `v64.1` as 64.1.0 and proposed 64.1.1 for
    /// fixes and 64.2.0 for a feature (7 points of round 23). `init` writes `features = "major"`
    /// and `cadence = "minor"` where the ten newest releases have two numbers and three or more
    /// of their steps stepped the first; the tag keeps three numbers (the contract: a two-number
    /// version is read, never written).
    @Test func twoNumbersThatCount() throws {
        let versions = ["60.0", "60.1", "61.0", "61.1", "61.2", "62.0", "62.1", "63.0", "64.0", "64.1"]
        let repository = try Self.twoNumberProject(versions)
        try repository.commit("fix: the flex layout", files: ["flex.py": "1\n"])
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("features = \"major\""), "\(config)")
        #expect(config.contains("cadence = \"minor\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "64.2.0")
        try repository.commit("feat: page groups", files: ["pages.py": "1\n"])
        #expect(try VersionIntentCLITests.bump(repository).1 == "65.0.0")
    }

    /// Two numbers whose first rarely steps (`v1.1` … `v1.8`, `v2.0`, `v2.1`) keep SemVer's
    /// reading: a feat is a minor.
    @Test func twoNumbersWithRareMajorsKeepSemVer() throws {
        let versions = ["1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "2.0", "2.1"]
        let repository = try Self.twoNumberProject(versions)
        try repository.commit("feat: a new option", files: ["option.py": "1\n"])
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(!config.contains("features = \"major\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "2.2.0")
    }

    /// molecule's `YY.M.P`, some tagged at the end of the month before the one they name
    /// (`v25.3.0` of 2025-02-18, `v25.11.0` of 2025-10-30): only the tag's month and the two
    /// before it were read as dated, so half the newest releases looked like SemVer and a fix in
    /// December gave 25.11.1 (2 points of round 22). The month after counts too: 25.12.0.
    @Test func calendarReleasesTaggedTheMonthBefore() throws {
        let releases = [
            ("24.12.0", "2024-12-05"), ("25.1.0", "2025-01-21"), ("25.2.0", "2025-01-28"), ("25.3.0", "2025-02-18"),
            ("25.3.1", "2025-02-19"), ("25.4.0", "2025-03-31"), ("25.5.0", "2025-05-26"), ("25.6.0", "2025-06-15"),
            ("25.7.0", "2025-07-28"), ("25.11.0", "2025-10-30"),
        ]
        let repository = try Self.pythonReleases(releases, name: "molecule")
        try repository.commit("Fix the driver", files: ["driver.py": "1\n"], date: "2025-12-10T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "25.12.0")
    }

    /// chroma's `cmd/chroma` is a Go module of its own, never tagged, that the root's GoReleaser
    /// builds and ships with every `v2.x` release: init excluded it as another module's code, so
    /// a change made there gave nothing to release (2 points of round 22). Kept in the root's changes;
    /// an untagged module nothing releases (`cmd/server`) is still excluded.
    @Test func aModuleTheRootsGoReleaserBuildsIsTheRootsCode() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "go.mod": "module github.com/alecthomas/chroma/v2\n\ngo 1.22\n", "lexer.go": "package chroma\n",
                "cmd/chroma/go.mod": "module github.com/alecthomas/chroma/v2/cmd/chroma\n", "cmd/chroma/main.go": "package main\n",
                "cmd/server/go.mod": "module github.com/alecthomas/chroma/v2/cmd/server\n", "cmd/server/main.go": "package main\n",
                ".goreleaser.yml": "project_name: chroma\nbuilds:\n  - goos:\n      - linux\n    dir: ./cmd/chroma\n    main: .\n    binary: chroma\n",
            ])
        try repository.git("tag", "v2.22.0")
        try repository.commit("feat: a style flag", files: ["cmd/chroma/main.go": "package main // flag\n"])
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("cmd/server/**") && !config.contains("cmd/chroma/**"), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "2.23.0")
    }

    /// pybind11's `v2.13` backported a `feat(types)` and wrote `Version 2.13.1` ahead in
    /// docs/changelog.rst, listing it under New Features; `plan` refused the line's first patch
    /// (exit 1: the feat calls for 2.14.0). The section written ahead names a version inside the
    /// range: that version, with the commit that called for more said.
    @Test func aChangelogNamingAVersionInsideTheRangeIsTheMaintainersWord() throws {
        let repository = try GitRepository()
        func changelog(_ sections: [String]) -> String {
            "Changelog\n#########\n\n" + sections.map { "\($0)\n" + String(repeating: "-", count: $0.count) + "\n\n* A change.\n\n" }.joined()
        }
        let pyproject = "[project]\nname = \"pybind11\"\ndynamic = [\"version\"]\n"
        try repository.commit(
            "chore: start", files: ["pyproject.toml": pyproject, "pybind11/_version.py": "__version__ = \"2.12.0\"\n",
                "docs/changelog.rst": changelog(["Version 2.12.0 (March 27, 2024)"])])
        try repository.git("tag", "v2.12.0")
        try repository.commit(
            "chore: bump to 2.13.0", files: ["pybind11/_version.py": "__version__ = \"2.13.0\"\n",
                "docs/changelog.rst": changelog(["Version 2.13.0 (June 25, 2024)", "Version 2.12.0 (March 27, 2024)"])])
        try repository.git("tag", "v2.13.0")
        try repository.git("checkout", "-q", "-b", "v2.13")
        try repository.commit("feat(types): add support for Typing.Callable (#5202)", files: ["pybind11/typing.h": "1\n"])
        try repository.commit(
            "docs: prepare for 2.13.1 (#5203)",
            files: ["docs/changelog.rst": changelog(["Version 2.13.1 (June 26, 2024)", "Version 2.13.0 (June 25, 2024)", "Version 2.12.0 (March 27, 2024)"])])
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("range = \"2.13.x\"") && config.contains("changelog = \"docs/changelog.rst\""), "\(config)")
        let result = try relctl(["plan"], in: repository.url)
        #expect(result.status == 0 && result.stdout.contains("2.13.1"), "\(result)")
        #expect(result.stderr.contains("names 2.13.1") && result.stderr.contains("Typing.Callable"), "\(result)")
    }

    /// furo dates its calendar versions by its maintainer's clock: `Update changelog` at
    /// `2023-08-19 00:24 +0100` was released as `2023.08.19`, still the 18th in UTC (1 point of
    /// round 22). The commit's own offset decides.
    @Test func aCalendarDateIsTheCommittersDay() throws {
        let repository = try GitRepository()
        try repository.commit(
            "Prepare release", files: ["pyproject.toml": "[project]\nname = \"furo\"\nversion = \"2023.08.17\"\n"],
            date: "2023-08-17T10:00:00Z")
        try repository.git(["tag", "2023.08.17"], environment: ["GIT_COMMITTER_DATE": "2023-08-17T10:00:00Z"])
        try repository.git("tag", "2023.07.05")
        try repository.commit("Update changelog", files: ["CHANGELOG.md": "x\n"], date: "2023-08-19T00:24:45+01:00")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "2023.08.19")
    }

    /// A changelog section written ahead whose entries are all under `### Fixed` is the
    /// maintainers' word on the size: a minor cadence (serde_with, a minor five times, released
    /// 3.14.1) and `untyped-adds` (river's "Add 30s timeout …", listed under Fixed, released as
    /// 0.37.1) do not lift it to a minor; an `### Added` entry still does (1 point each, rounds 22
    /// and 23).
    @Test func aChangelogStatingAPatchOutweighsHabits() throws {
        for key in ["cadence = \"minor\"", "untyped-adds = \"minor\""] {
            let repository = try GitRepository()
            let config =
                "[project]\nname = \"lib\"\ntag-format = \"v{version}\"\n\n[versioning]\nchangelog = \"CHANGELOG.md\"\n\(key)\n"
            try repository.commit(
                "chore: start", files: ["relctl.toml": config, "CHANGELOG.md": "# Changelog\n\n## [3.14.0] - 2025-06-01\n\n### Added\n\n- Things.\n"])
            try repository.git("tag", "v3.14.0")
            try repository.commit(
                "Add 30s timeout to the enqueuer's insert (#1251)",
                files: [
                    "enqueuer.go": "1\n",
                    "CHANGELOG.md":
                        "# Changelog\n\n## [Unreleased]\n\n### Fixed\n\n- Wrap the enqueuer's insert in a 30-second timeout.\n\n## [3.14.0] - 2025-06-01\n\n### Added\n\n- Things.\n",
                ])
            let (result, next) = try VersionIntentCLITests.bump(repository)
            #expect(next == "3.14.1", "\(key): \(result)")
            try repository.commit(
                "docs: note the flag",
                files: [
                    "CHANGELOG.md":
                        "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- A flag.\n\n### Fixed\n\n- Wrap the enqueuer's insert in a 30-second timeout.\n\n## [3.14.0] - 2025-06-01\n\n### Added\n\n- Things.\n"
                ])
            #expect(try VersionIntentCLITests.bump(repository).1 == "3.15.0", "\(key)")
        }
    }

    /// salvo added a Keep a Changelog skeleton (`### Added` / `- Changelog established for
    /// upcoming releases.`) and never wrote to it: relctl read a minor at each of four patch
    /// releases it outlived (round 23). A pending section standing as it stood at the latest
    /// release says nothing; one written to since is read as before.
    @Test func aPendingSectionUnchangedSinceTheReleaseSaysNothing() throws {
        let repository = try GitRepository()
        let skeleton = "# Changelog\n\n## [Unreleased]\n\n### Added\n\n- Changelog established for upcoming releases.\n\n### Fixed\n\n- None yet.\n"
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"salvo\"\ntag-format = \"v{version}\"\n\n[versioning]\nchangelog = \"CHANGELOG.md\"\n",
                "CHANGELOG.md": skeleton,
            ])
        try repository.git("tag", "v0.95.0")
        try repository.commit("fix(core): a panic on empty bodies", files: ["core.rs": "1\n"])
        let (result, next) = try VersionIntentCLITests.bump(repository)
        #expect(next == "0.95.1", "\(result)")
        #expect(result.stderr.contains("stands as it did at v0.95.0"), "\(result)")
        try repository.commit(
            "docs: note the OpenAPI support",
            files: ["CHANGELOG.md": skeleton.replacingOccurrences(of: "releases.\n", with: "releases.\n- OpenAPI 3.2 documents.\n")])
        #expect(try VersionIntentCLITests.bump(repository).1 == "0.96.0")
    }

    /// svcs (like attrs and structlog) says in its changelog that "the first number of the version
    /// is the year" and "the second number is incremented with each release, starting at 1 for
    /// each year"; its 23.1.0 … 23.21.0 all fall in 2023, too few years for the tags alone, so
    /// init wrote a minor cadence and a breaking change gave 24.0.0 (2 points of round 23). The
    /// project's words write `cadence = "year-counter"`.
    @Test func aYearCounterTheChangelogStates() throws {
        let repository = try GitRepository()
        let header =
            "# Changelog\n\nThis project adheres to [Calendar Versioning](https://calver.org/).\n\nThe **first number** of the version is the year.\nThe **second number** is incremented with each release, starting at 1 for each year.\n\n<!-- changelog follows -->\n"
        for counter in 1...6 {
            let date = String(format: "2023-%02d-10T10:00:00Z", counter * 2)
            try repository.commit(
                "Prepare 23.\(counter).0", files: ["CHANGELOG.md": header, "svcs.py": "\(counter)\n"], date: date)
            try repository.git(["tag", "23.\(counter).0"], environment: ["GIT_COMMITTER_DATE": date])
        }
        try repository.commit("feat!: drop Python 3.7", files: ["svcs.py": "x\n"], date: "2023-12-20T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("cadence = \"year-counter\"") && config.contains("CHANGELOG.md:5"), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "23.7.0")
    }

    /// styled-components publishes snapshots (`changeset version --snapshot prerelease`) and tags
    /// them (`styled-components@6.4.2-prerelease-20260516150535`); on its `6.x` branch relctl took
    /// the snapshot for a prerelease line and proposed `….1` (1 point of round 22). Out of
    /// changesets' pre mode the next release is the final, on a branch line as on `main`.
    @Test func aChangesetsSnapshotIsNoLineOnABranch() throws {
        let repository = try GitRepository()
        let config =
            "[project]\nname = \"styled-components\"\ntag-format = \"{project}@{version}\"\n\n[[version]]\npath = \"package.json\"\n\n[versioning]\nfragments = \"changesets\"\n\n[[branch]]\nname = \"6.x\"\nrange = \"6.x\"\n"
        try repository.commit(
            "Version Packages",
            files: [
                "relctl.toml": config, ".changeset/config.json": "{}\n",
                "package.json": "{\n  \"name\": \"styled-components\",\n  \"version\": \"6.4.1\"\n}\n",
            ])
        try repository.git("tag", "styled-components@6.4.1")
        try repository.git("checkout", "-q", "-b", "6.x")
        try repository.commit(
            "fix: jsx prop intellisense",
            files: [".changeset/fix-jsx.md": "---\n\"styled-components\": patch\n---\n\nFix the jsx prop.\n", "index.js": "1\n"])
        try repository.git("tag", "styled-components@6.4.2-prerelease-20260516150535")
        let (result, next) = try VersionIntentCLITests.bump(repository)
        #expect(next == "6.4.2", "\(result)")
    }

    /// formatjs builds `packages/cli`'s package.json with Bazel and release-please writes its
    /// version into BUILD.bazel: the folder holds no manifest relctl reads, so init left it out of
    /// the workspace and `plan` had no row for `@formatjs/cli` (regression set). A package
    /// `release-please-config.json` lists is a member, named as the config names it.
    @Test func aReleasePleasePackageWithoutAManifestIsAMember() throws {
        let repository = try GitRepository()
        let config = """
            {"include-component-in-tag": true, "tag-separator": "@", "include-v-in-tag": false,
             "packages": {"packages/cli": {"component": "@formatjs/cli", "version-file": "BUILD.bazel"},
                          "packages/intl": {"component": "@formatjs/intl"}}}
            """
        try repository.commit(
            "chore: start",
            files: [
                "package.json": "{\n  \"name\": \"formatjs\",\n  \"private\": true\n}\n",
                "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n", "release-please-config.json": config,
                "packages/cli/BUILD.bazel": "npm_package(\n    version = \"6.16.11\",  # x-release-please-version\n)\n",
                "packages/intl/package.json": "{\n  \"name\": \"@formatjs/intl\",\n  \"version\": \"4.1.0\"\n}\n",
            ])
        for tag in ["@formatjs/cli@6.16.10", "@formatjs/cli@6.16.11", "@formatjs/intl@4.0.0", "@formatjs/intl@4.1.0"] {
            try repository.git("tag", tag)
        }
        try repository.commit("fix(@formatjs/cli): read globs", files: ["packages/cli/main.ts": "1\n"])
        let written = try OutOfSampleRound15CLITests.initialise(repository)
        #expect(written.contains("packages/*"), "\(written)")
        let cli = try OutOfSampleRound15CLITests.rows(repository)["packages/cli"]
        #expect(cli?["next"] as? String == "6.16.12" && cli?["tag"] as? String == "@formatjs/cli@6.16.12", "\(String(describing: cli))")
    }

    /// pretalx counts its year's releases (`v2026.1.0`, `v2026.2.0`) and ships fixes as patches of
    /// them (`v2026.1.1`, `v2026.1.2`): under the year counter every fix-only range became the
    /// year's next count. Where three or more of the ten newest releases are patches, a fix is a
    /// patch; a feat still counts on. attrs, with no patches, keeps counting (aYearCounterCadence).
    @Test func aYearCounterWithPatchesOfItsOwn() throws {
        let releases = [
            ("2024.1.0", "2024-02-16"), ("2024.1.1", "2024-03-01"), ("2024.2.0", "2024-08-06"), ("2024.3.0", "2024-10-21"),
            ("2024.3.1", "2024-10-27"), ("2025.1.0", "2025-05-28"), ("2025.1.1", "2025-06-02"), ("2025.2.0", "2025-11-30"),
            ("2026.1.0", "2026-04-17"),
        ]
        let repository = try Self.pythonReleases(releases, name: "pretalx")
        try repository.commit("fix: the schedule export", files: ["schedule.py": "1\n"], date: "2026-04-20T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("cadence = \"year-counter\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "2026.1.1")
        try repository.commit("feat: a speaker survey", files: ["survey.py": "1\n"], date: "2026-04-25T10:00:00Z")
        #expect(try VersionIntentCLITests.bump(repository).1 == "2026.2.0")
    }

    /// Xray-core names each release for its day (`v26.4.15` of 2026-04-15), unpadded, all of one
    /// year: relctl read SemVer and proposed the next patch, `26.4.14` (0 of 10 points, round 24).
    /// Third numbers that follow the tags' days make calendar versions, and the next is the day
    /// of the commit released.
    @Test func calendarVersionsNamedForTheirDay() throws {
        let days = ["26.1.13", "26.1.18", "26.1.23", "26.1.31", "26.2.2", "26.2.4", "26.2.6", "26.3.23", "26.3.27", "26.4.13"]
        let repository = try Self.goModule(
            days.map { version in
                let parts = version.split(separator: ".").map { Int($0)! }
                return (version, String(format: "2026-%02d-%02d", parts[1], parts[2]))
            }, module: "github.com/xtls/xray-core")
        try repository.commit("Fix the router", files: ["router.go": "1\n"], date: "2026-04-15T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "26.4.15")
    }

    /// conda's projects keep rever news files: `news/TEMPLATE` lists `### Enhancements`, `### Bug
    /// fixes`, `### Deprecations`, `### Docs`, `### Other`, each `* <news item>`; a pull request adds
    /// a copy with its entries, merged into the changelog at the release. Its untyped subjects gave
    /// patches for conda-index's minors (round 25). init writes `fragments = "news"`: an entry
    /// under Enhancements is a minor, one under Bug fixes a patch; the template's placeholder is none.
    @Test func reverNewsFilesGiveTheLevel() throws {
        let template = "### Enhancements\n\n* <news item>\n\n### Bug fixes\n\n* <news item>\n\n### Deprecations\n\n* <news item>\n\n### Docs\n\n* <news item>\n\n### Other\n\n* <news item>\n"
        let repository = try GitRepository()
        try repository.commit(
            "Release 0.3.0",
            files: ["pyproject.toml": "[project]\nname = \"conda-index\"\ndynamic = [\"version\"]\n", "news/TEMPLATE": template])
        try repository.git("tag", "0.3.0")
        try repository.commit(
            "Fix the cache (#120)",
            files: ["index.py": "1\n", "news/120-cache": template.replacingOccurrences(of: "### Bug fixes\n\n* <news item>", with: "### Bug fixes\n\n* Fix the cache. (#120)")])
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("fragments = \"news\""), "\(config)")
        #expect(try VersionIntentCLITests.bump(repository).1 == "0.3.1")
        try repository.commit(
            "Index subcommand (#131)",
            files: ["cli.py": "1\n", "news/131-index": template.replacingOccurrences(of: "### Enhancements\n\n* <news item>", with: "### Enhancements\n\n* Add the `conda index` subcommand. (#131)")])
        #expect(try VersionIntentCLITests.bump(repository).1 == "0.4.0")
    }
}
