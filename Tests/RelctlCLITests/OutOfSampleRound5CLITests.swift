import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the fifth out-of-sample round of the back-test found (session 62: packaging, mypy,
/// flake8, go-redis, helm, zustand and more), each on a generated repository of the shape that
/// was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound5CLITests {
    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    @discardableResult
    static func commit(_ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    /// The first member row of `plan --json`.
    static func planRow(_ json: String) throws -> [String: Any]? {
        ((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["members"] as? [[String: Any]])?
            .first
    }

    /// packaging counts each year's releases from `.0` (`24.0` … `24.2`, `25.0`, `26.0rc1`, `26.0`,
    /// `26.1`): init wrote the year-counter cadence but read the tags as SemVer, so bump proposed
    /// `26.2.0`, a spelling the project never tags; the next release is `26.2`.
    @Test func aYearCounterOfTwoNumbersKeepsItsSpelling() throws {
        let repo = try GitRepository()
        func module(_ version: String) -> [String: String] {
            [
                "pyproject.toml":
                    "[build-system]\nrequires = [\"flit_core >=3.3\"]\nbuild-backend = \"flit_core.buildapi\"\n\n[project]\nname = \"packaging\"\ndynamic = [\"version\"]\n",
                "src/packaging/__init__.py": "__version__ = \"\(version)\"\n",
            ]
        }
        let releases = [
            ("23.0", "2023-01-08"), ("23.1", "2023-04-12"), ("23.2", "2023-10-01"), ("24.0", "2024-03-10"),
            ("24.1", "2024-06-10"), ("24.2", "2024-11-08"), ("25.0", "2025-04-19"), ("26.0rc1", "2026-01-08"),
            ("26.0", "2026-01-20"), ("26.1", "2026-04-14"),
        ]
        for (version, date) in releases {
            try repo.commit("Bump for release", files: module(version), date: date + "T10:00:00Z")
            try repo.git("tag", version)
        }
        try repo.commit("Fix a marker evaluation", files: ["src/packaging/markers.py": "a\n"], date: "2026-05-02T10:00:00Z")
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "26.2", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "26.2", "\(bump)")
    }

    /// mypy keeps `X.Y.0+dev` in `mypy/version.py` between releases, which `setup.py` imports for
    /// its dynamic version: init listed nothing ("the version comes from the git tag"), and once
    /// the file was listed bump proposed `1.5.0+dev` and the tag `v1.5.0+dev`.
    @Test func aLocalDevLabelIsADevelopmentMarkerAndSetupPyNamesTheFile() throws {
        let repo = try GitRepository()
        let files = [
            "pyproject.toml": "[build-system]\nrequires = [\"setuptools >= 75.0\"]\n\n[project]\nname = \"mypy\"\ndynamic = [\"version\"]\n",
            "setup.py": "import sys\n\nfrom mypy.version import __version__ as version\nfrom setuptools import setup\n\nsetup(version=version)\n",
            "mypy/__init__.py": "\n",
        ]
        var released = files
        released["mypy/version.py"] = "import os\n\n__version__ = \"1.4.0\"\nbase_version = __version__\n"
        try BacktestFindingsCLITests.commit(repo, "Remove +dev from version", day: 1, files: released)
        try repo.git("tag", "v1.4.0")
        try BacktestFindingsCLITests.commit(
            repo, "Bump version to 1.5.0+dev", day: 2,
            files: ["mypy/version.py": "import os\n\n__version__ = \"1.5.0+dev\"\nbase_version = __version__\n"])
        try BacktestFindingsCLITests.commit(repo, "Fix crash on a recursive alias", day: 3, files: ["mypy/checker.py": "a\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"mypy/version.py\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "1.5.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "v1.5.0", "\(bump)")
    }

    /// flake8's setup.cfg says `version = attr: flake8.__version__`, held in
    /// `src/flake8/__init__.py`: init said "no manifest found", so a release left the version stale.
    @Test func aSetupCfgAttrVersionListsTheModuleHoldingIt() throws {
        let repo = try GitRepository()
        let module = "\"\"\"flake8.\"\"\"\nimport logging\n\n__version__ = \"7.3.0\"\n__version_info__ = (7, 3, 0)\n"
        try BacktestFindingsCLITests.commit(
            repo, "Release 7.3.0", day: 1,
            files: [
                "setup.cfg": "[metadata]\nname = flake8\nversion = attr: flake8.__version__\n\n[options]\npackage_dir =\n    =src\n",
                "setup.py": "import setuptools\n\nsetuptools.setup()\n",
                "src/flake8/__init__.py": module,
            ])
        try repo.git("tag", "7.3.0")
        try BacktestFindingsCLITests.commit(repo, "fix noqa handling of E501", day: 2, files: ["src/flake8/style_guide.py": "a\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"src/flake8/__init__.py\""), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("src/flake8/__init__.py") == module.replacingOccurrences(of: "\"7.3.0\"", with: "\"7.3.1\""))
    }

    /// go-redis keeps its version in `func Version() string { return "9.22.0" }`, which every
    /// release commit bumps: init listed no version file, so a stale one passed `validate-tag`.
    @Test func aGoFunctionReturningTheVersionIsListed() throws {
        let repo = try GitRepository()
        let source = "package redis\n\n// Version is the current release version.\nfunc Version() string {\n\treturn \"9.22.0\"\n}\n"
        try BacktestFindingsCLITests.commit(
            repo, "chore(release): prepare 9.22.0", day: 1,
            files: ["go.mod": "module github.com/redis/go-redis/v9\n\ngo 1.21\n", "version.go": source, "redis.go": "package redis\n"])
        try repo.git("tag", "v9.22.0")
        try BacktestFindingsCLITests.commit(repo, "fix(pool): close idle connections", day: 2, files: ["pool.go": "package redis\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"version.go\""), "\(config)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("version.go") == source.replacingOccurrences(of: "9.22.0", with: "9.22.1"))
    }

    /// zustand's `v4` line tagged its 4.5.7 without the `v` of its other tags: on the branch,
    /// plan counted from 4.5.6, listed the released fix again and proposed 4.5.8.
    @Test func aMaintenanceLinesReleaseInAnotherSpellingIsItsLatest() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] { ["package.json": "{\"name\":\"x\",\"version\":\"\(version)\"}\n"] }
        try BacktestFindingsCLITests.commit(repo, "chore: init", day: 1, files: manifest("1.0.0"))
        try repo.git("tag", "v1.0.0")
        try repo.git("checkout", "-q", "-b", "v1")
        try BacktestFindingsCLITests.commit(repo, "fix: a", day: 2, files: ["a.js": "a\n"])
        try BacktestFindingsCLITests.commit(repo, "1.0.1", day: 3, files: manifest("1.0.1"))
        try repo.git("tag", "v1.0.1")
        try repo.git("checkout", "-q", "main")
        try BacktestFindingsCLITests.commit(repo, "feat!: two", day: 4, files: ["b.js": "b\n"])
        try BacktestFindingsCLITests.commit(repo, "2.0.0", day: 5, files: manifest("2.0.0"))
        try repo.git("tag", "v2.0.0")
        try repo.git("checkout", "-q", "v1")
        try BacktestFindingsCLITests.commit(repo, "fix: b", day: 6, files: ["a.js": "b\n"])
        try BacktestFindingsCLITests.commit(repo, "1.0.2", day: 7, files: manifest("1.0.2"))
        try repo.git("tag", "1.0.2")
        try repo.directory.write("relctl.toml", "[project]\nname = \"x\"\n\n[[version]]\npath = \"package.json\"\n\n[[branch]]\nname = \"v1\"\nrange = \"1.x\"\n")
        try repo.git("add", "relctl.toml")
        try BacktestFindingsCLITests.commit(repo, "chore: relctl", day: 8)
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let row = try Self.planRow(plan.stdout)
        #expect(row?["current"] as? String == "1.0.2", "\(plan)")
        let notes = try relctl(["notes"], in: repo.url)
        #expect(notes.status == 0 && !notes.stdout.contains("- b"), "\(notes)")
    }

    /// helm cuts each 3.x minor on its own `release-3.N` branch while main releases 4.x: init wrote
    /// `range = "3.x"` for `release-3.21`, so a backported `feat` became 3.22.0, a version helm
    /// never cuts there. The name gives the line: `3.21.x`.
    @Test func aBranchNamedForItsMinorIsThatMinorsLineBesideTheNextMajor() throws {
        let repo = try GitRepository()
        try BacktestFindingsCLITests.commit(repo, "chore: start", day: 1, files: ["go.mod": "module helm.sh/helm/v3\n\ngo 1.22\n"])
        try repo.git("tag", "v3.21.0")
        try repo.git("checkout", "-q", "-b", "release-3.21")
        try BacktestFindingsCLITests.commit(repo, "fix(action): a backport", day: 2, files: ["action.go": "package action\n"])
        try repo.git("tag", "v3.21.1")
        try repo.git("checkout", "-q", "main")
        try BacktestFindingsCLITests.commit(
            repo, "feat!: helm 4", day: 3, files: ["go.mod": "module helm.sh/helm/v4\n\ngo 1.22\n"])
        try repo.git("tag", "v4.0.0")
        try repo.git("checkout", "-q", "release-3.21")
        try BacktestFindingsCLITests.commit(repo, "fix(chart): another backport", day: 4, files: ["chart.go": "package chart\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"release-3.21\"\nrange = \"3.21.x\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "3.21.2", "\(bump)")
    }

    /// tzdata counts each year's releases (`2025.1` … `2025.3`) but tags most of them on release
    /// branches main never merges: main alone read 2022.7 → 2023.4, no cadence, and calendar
    /// versions dated by month proposed 2025.12 where the project released 2025.3.
    @Test func aYearCounterTaggedOffTheBranchIsStillTheCadence() throws {
        let repo = try GitRepository()
        try repo.commit("Initial", files: ["NEWS.md": "start\n"], date: "2023-01-02T10:00:00Z")
        let releases: [(String, String, Bool)] = [
            ("2023.1", "2023-02-01", false), ("2023.2", "2023-03-01", false), ("2023.3", "2023-03-20", false),
            ("2023.4", "2023-12-29", true), ("2024.1", "2024-02-02", true), ("2024.2", "2024-09-05", false),
            ("2025.1", "2025-01-17", true), ("2025.2", "2025-03-25", false),
        ]
        for (index, (version, date, onMain)) in releases.enumerated() {
            if !onMain { try repo.git("checkout", "-q", "-b", "release-\(index)") }
            try repo.commit("Update to \(version)", files: ["VERSION.txt": version + "\n"], date: date + "T10:00:00Z")
            try repo.git("tag", version)
            if !onMain { try repo.git("checkout", "-q", "main") }
        }
        try repo.commit("Update the data", files: ["src/zone.txt": "a\n"], date: "2025-12-01T10:00:00Z")
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("cadence = \"year-counter\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "2025.3", "\(bump)")
    }

    /// ingress-nginx tagged `ingress-nginx-3.15.2` last in 2020, then `helm-chart-4.x` and
    /// `controller-v1.x` for five years: init in the chart's folder chose the dead series named
    /// after the project, and plan proposed 4.15.1 (the chart's version, released already as
    /// `helm-chart-4.15.1`) as `ingress-nginx-4.15.1`.
    @Test func aSeriesNamedForTheProjectThatTheHistoryLeftBehindIsNotChosen() throws {
        let repo = try GitRepository()
        func chart(_ version: String) -> [String: String] {
            ["charts/ingress-nginx/Chart.yaml": "apiVersion: v2\nname: ingress-nginx\nversion: \(version)\nappVersion: 1.0.0\n"]
        }
        var day = 0
        func date() -> String {
            day += 1
            let when = Date(timeIntervalSince1970: 1_577_836_800 + Double(day) * 86_400 * 50)  // 2020-01-01, every 50 days
            return ISO8601DateFormatter().string(from: when)
        }
        for patch in 0...2 {
            try repo.commit("Release 3.15.\(patch)", files: chart("3.15.\(patch)"), date: date())
            try repo.git("tag", "ingress-nginx-3.15.\(patch)")
        }
        for minor in 0...13 {
            try repo.commit("Release controller 1.\(minor).0", files: ["main.go": "package main // \(minor)\n"], date: date())
            try repo.git("tag", "controller-v1.\(minor).0")
            try repo.commit("Release chart 4.0.\(minor)", files: chart("4.0.\(minor)"), date: date())
            try repo.git("tag", "helm-chart-4.0.\(minor)")
        }
        try repo.commit("fix(chart): quote the annotations", files: ["charts/ingress-nginx/templates/a.yaml": "a: b\n"], date: date())
        let folder = repo.url.appendingPathComponent("charts/ingress-nginx")
        let made = try relctl(["init", "--quiet"], in: folder)
        #expect(made.status == 0, "\(made)")
        let config = try String(contentsOf: folder.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("tag-format = \"helm-chart-{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: folder)
        #expect(try Self.field(bump.stdout, "tag") as? String == "helm-chart-4.0.14", "\(bump)")
    }

    /// prost's `conformance` test runner and rayon's `rayon-demo` are unpublished crates of a
    /// library's workspace: init set up a build of the runner, and `check` warned about the demo's
    /// missing version ("rayon-demo/relctl.toml: no [[version]] entries") on init's own file.
    @Test func aLibrarysTestRunnerAndDemoCrateAreNeitherBuiltNorWarnedAbout() throws {
        let repo = try GitRepository()
        try BacktestFindingsCLITests.commit(
            repo, "start", day: 1,
            files: [
                "Cargo.toml": "[package]\nname = \"rayon\"\nversion = \"1.12.0\"\n\n[workspace]\nmembers = [\"rayon-core\", \"rayon-demo\", \"conformance\"]\n",
                "src/lib.rs": "\n",
                "rayon-core/Cargo.toml": "[package]\nname = \"rayon-core\"\nversion = \"1.13.0\"\n",
                "rayon-core/src/lib.rs": "\n",
                "rayon-demo/Cargo.toml": "[package]\nname = \"rayon-demo\"\npublish = false\n",
                "rayon-demo/src/main.rs": "fn main() {}\n",
                "conformance/Cargo.toml": "[package]\nname = \"conformance\"\nversion = \"0.0.0\"\npublish = false\n",
                "conformance/src/main.rs": "fn main() {}\n",
            ])
        try repo.git("tag", "v1.12.0")
        try repo.git("tag", "rayon-core-v1.13.0")
        try BacktestFindingsCLITests.commit(repo, "fix a deadlock", day: 2, files: ["rayon-core/src/lib.rs": "// a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("binaries = [\"conformance\"]") && !config.contains("[build]\ncommand"), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
    }

    /// prost's 0.13.0 held one `feat` (its API broke unmarked), then five 0.13.x releases each
    /// held a `feat`: the one minor vetoed Cargo's 0.x rule, and plan proposed 0.14.0 where prost
    /// released 0.13.5.
    @Test func oneFeatMinorAmongManyFeatPatchesStillGivesCargosZeroMajorRule() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["Cargo.toml": "[package]\nname = \"prost\"\nversion = \"\(version)\"\n", "src/lib.rs": "// \(version)\n"]
        }
        var day = 1
        try BacktestFindingsCLITests.commit(repo, "release 0.12.6", day: day, files: manifest("0.12.6"))
        try repo.git("tag", "v0.12.6")
        for version in ["0.13.0", "0.13.1", "0.13.2", "0.13.3", "0.13.4"] {
            day += 1
            try BacktestFindingsCLITests.commit(repo, "feat: something for \(version)", day: day, files: ["src/f\(day).rs": "\n"])
            try BacktestFindingsCLITests.commit(repo, "release \(version)", day: day, files: manifest(version))
            try repo.git("tag", "v" + version)
        }
        try BacktestFindingsCLITests.commit(repo, "feat: add a derive option", day: day + 1, files: ["src/g.rs": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("zero-major = \"cargo\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "0.13.5", "\(bump)")
    }

    /// An npm workspace: lit's `@lit/context` and `@lit-labs/context` share the name `context`
    /// (init wrote both and `plan` exited 2); pinia's two private `@pinia/playground` folders too;
    /// redux-toolkit's docusaurus `website` has no version and was proposed as 0.1.0; lit's nested
    /// package-lock.json, which npm never reads in a workspace, made `check` exit 2.
    @Test func npmWorkspaceNamesakesUnversionedFoldersAndNestedLocks() throws {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String?, _ extra: String = "") -> String {
            "{\n  \"name\": \"\(name)\"\(version.map { ",\n  \"version\": \"\($0)\"" } ?? "")\(extra)\n}\n"
        }
        try BacktestFindingsCLITests.commit(
            repo, "chore: release", day: 1,
            files: [
                "package.json": package("lit-monorepo", nil, ",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\", \"packages/labs/*\"]"),
                "package-lock.json": "{\n  \"name\": \"lit-monorepo\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\n    \"packages/labs/cli\": {\n      \"version\": \"0.2.2\"\n    }\n  }\n}\n",
                "packages/context/package.json": package("@lit/context", "1.1.6"),
                "packages/labs/context/package.json": package("@lit-labs/context", "0.5.1"),
                "packages/labs/cli/package.json": package("@lit-labs/cli", "0.2.2"),
                "packages/labs/cli/package-lock.json": "{\n  \"name\": \"@lit-labs/cli\",\n  \"version\": \"0.1.0\",\n  \"lockfileVersion\": 3\n}\n",
                "packages/playground/package.json": package("@pinia/playground", "0.0.0", ",\n  \"private\": true"),
                "packages/labs/playground/package.json": package("@pinia/playground", "0.0.0", ",\n  \"private\": true"),
                "packages/website/package.json": package("website", nil),
            ])
        for tag in ["@lit/context@1.1.6", "@lit-labs/context@0.5.1", "@lit-labs/cli@0.2.2"] { try repo.git("tag", tag) }
        try BacktestFindingsCLITests.commit(repo, "fix(context): a leak", day: 2, files: ["packages/context/a.js": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        let members = config.split(separator: "\n").first { $0.hasPrefix("members = ") }.map(String.init) ?? ""
        #expect(members.contains("\"packages/context\"") && !members.contains("packages/labs/context"), "\(config)")
        #expect(!members.contains("playground"), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0, "\(checked)")
        let plan = try relctl(["plan"], in: repo.url)
        #expect(plan.status == 0 && plan.stdout.contains("@lit/context@1.1.7"), "\(plan)")
        let website = plan.stdout.split(separator: "\n").first { $0.hasPrefix("website ") }.map(String.init) ?? ""
        #expect(website.contains("unpublished") && !website.contains("0.1.0"), "\(plan)")
    }

    /// jest keeps its version in lerna.json; its private root package.json holds 0.0.0: init listed
    /// both, `check` warned that the manifests disagree and `validate-tag v30.4.2` refused jest's own tag.
    @Test func aPlaceholderRootPackageBesideLernaJsonIsNotListed() throws {
        let repo = try GitRepository()
        try BacktestFindingsCLITests.commit(
            repo, "v30.4.2", day: 1,
            files: [
                "package.json":
                    "{\n  \"name\": \"@jest/monorepo\",\n  \"private\": true,\n  \"version\": \"0.0.0\",\n  \"workspaces\": [\"packages/*\"]\n}\n",
                "lerna.json": "{\n  \"packages\": [\"packages/*\"],\n  \"npmClient\": \"yarn\",\n  \"version\": \"30.4.2\"\n}\n",
                "packages/jest/package.json": "{\n  \"name\": \"jest\",\n  \"version\": \"30.4.2\"\n}\n",
                "packages/expect/package.json": "{\n  \"name\": \"expect\",\n  \"version\": \"30.4.2\"\n}\n",
            ])
        try repo.git("tag", "v30.4.2")
        try BacktestFindingsCLITests.commit(repo, "fix: a watch-mode crash", day: 2, files: ["packages/jest/a.js": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"lerna.json\"") && !config.contains("path = \"package.json\""), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("disagree"), "\(checked)")
    }

    /// libc's `libc-0.2` branch keeps `ctest` as a `publish = false` dummy at 0.1.0 while main tags
    /// the real crate `ctest-v0.5.x`: plan proposed ctest 0.5.2 on the branch and `bump --write`
    /// wrote 0.5.2 into the dummy.
    @Test func anUnpublishedDummyWhoseTagsAreOnAnotherBranchIsNotReleased() throws {
        let repo = try GitRepository()
        let workspace = "[package]\nname = \"libc\"\nversion = \"0.2.180\"\n\n[workspace]\nmembers = [\"ctest\"]\n"
        let dummy = "[package]\nname = \"ctest\"\nversion = \"0.1.0\"\npublish = false\n"
        try BacktestFindingsCLITests.commit(
            repo, "start", day: 1, files: ["Cargo.toml": workspace, "src/lib.rs": "\n", "ctest/Cargo.toml": dummy, "ctest/src/lib.rs": "\n"])
        try repo.git("tag", "0.2.180")
        try repo.git("branch", "libc-0.2")
        try BacktestFindingsCLITests.commit(
            repo, "ctest: the real crate", day: 2,
            files: ["ctest/Cargo.toml": "[package]\nname = \"ctest\"\nversion = \"0.5.1\"\n", "ctest/src/lib.rs": "// real\n"])
        try repo.git("tag", "ctest-v0.5.1")
        try repo.git("checkout", "-q", "libc-0.2")
        try BacktestFindingsCLITests.commit(repo, "fix: a constant", day: 3, files: ["src/lib.rs": "// a\n", "ctest/src/lib.rs": "// b\n"])
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"libc\"\ntag-format = \"{version}\"\n\n[workspace]\nmembers = [\".\", \"ctest\"]\n\n[workspace.tag-formats]\nctest = \"ctest-v{version}\"\nlibc = \"{version}\"\n")
        let plan = try relctl(["plan"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let row = plan.stdout.split(separator: "\n").first { $0.hasPrefix("ctest ") }.map(String.init) ?? ""
        #expect(row.contains("unpublished") && !row.contains("0.5.2"), "\(plan)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("ctest/Cargo.toml") == dummy)

        // apollo-client's root is `"private": true` (it publishes from dist/) at 4.2.3, tagged, while
        // a 4.3.0 prerelease was tagged on another branch: still released (the first cut of this rule
        // read it as a dummy and proposed nothing, 10 points of the back-test).
        let apollo = try GitRepository()
        func root(_ version: String) -> [String: String] {
            [
                "package.json":
                    "{\"name\":\"@apollo/client\",\"version\":\"\(version)\",\"private\":true,\"workspaces\":[\"codegen\"]}\n"
            ]
        }
        var files = root("4.2.3")
        files["codegen/package.json"] = "{\"name\":\"@apollo/client-graphql-codegen\",\"version\":\"2.0.0\"}\n"
        try BacktestFindingsCLITests.commit(apollo, "Version Packages", day: 1, files: files)
        try apollo.git("tag", "@apollo/client@4.2.3")
        try apollo.git("tag", "@apollo/client-graphql-codegen@2.0.0")
        try apollo.git("checkout", "-q", "-b", "release-4.3")
        try BacktestFindingsCLITests.commit(apollo, "Version Packages (alpha)", day: 2, files: root("4.3.0-alpha.0"))
        try apollo.git("tag", "@apollo/client@4.3.0-alpha.0")
        try apollo.git("checkout", "-q", "main")
        try BacktestFindingsCLITests.commit(apollo, "fix: a cache merge", day: 3, files: ["src/cache.ts": "a\n"])
        try apollo.directory.write(
            "relctl.toml",
            "[project]\nname = \"client\"\n\n[workspace]\nmembers = [\".\", \"codegen\"]\ntag-format = \"@apollo/{member}@{version}\"\n")
        let apolloPlan = try relctl(["plan"], in: apollo.url)
        let client = apolloPlan.stdout.split(separator: "\n").first { $0.hasPrefix("client ") }.map(String.init) ?? ""
        #expect(client.contains("4.2.4") && !client.contains("unpublished"), "\(apolloPlan)")
    }

    /// hummingbird's Package.swift offers its libraries and a `PerformanceTest` executable: init
    /// listed it as the release's binary, with a [build] that ships a benchmark. A tool the
    /// library ships beside them (`hb-cli` here; swift-protobuf's `protoc-gen-swift`) stays.
    @Test func aSwiftLibrarysTestExecutableIsNoBinary() throws {
        let repo = try GitRepository()
        let manifest = """
            // swift-tools-version:5.9
            import PackageDescription

            let package = Package(
                name: "hummingbird",
                products: [
                    .library(name: "Hummingbird", targets: ["Hummingbird"]),
                    .executable(name: "PerformanceTest", targets: ["PerformanceTest"]),
                    .executable(name: "hb-cli", targets: ["hb-cli"]),
                ],
                targets: [
                    .target(name: "Hummingbird"),
                    .executableTarget(name: "PerformanceTest", dependencies: ["Hummingbird"]),
                    .executableTarget(name: "hb-cli", dependencies: ["Hummingbird"]),
                ]
            )

            """
        try repo.commit("Start", files: ["Package.swift": manifest, "Sources/Hummingbird/A.swift": "let a = 1\n"])
        try repo.git("tag", "2.26.0")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("binaries = [\"hb-cli\"]\n"), "\(config)")
        #expect(config.contains("executable PerformanceTest tests or shows the libraries"), "\(config)")
    }

    /// ingress-nginx: its Go module has no tag of its name, its chart `charts/ingress-nginx`
    /// (`version: 4.15.1`, `appVersion: 1.15.1`) is tagged `helm-chart-4.15.1`, the controller
    /// `controller-v1.15.1`: init wrote `v{version}` and plan proposed 0.1.0 (10 of 10 missed).
    /// The series the chart's appVersion names is the application's.
    @Test func theSeriesAChartsAppVersionNamesIsTheRootApplications() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module k8s.io/ingress-nginx\n\ngo 1.22\n")
        func chart(_ version: String, _ app: String) -> [String: String] {
            ["charts/ingress-nginx/Chart.yaml": "apiVersion: v2\nname: ingress-nginx\nversion: \(version)\nappVersion: \(app)\n"]
        }
        for (day, (chartVersion, app)) in [("4.13.0", "1.13.0"), ("4.14.0", "1.14.0"), ("4.15.0", "1.15.0")].enumerated() {
            try Self.commit(repo, "Release controller v\(app) and chart v\(chartVersion)", day: day + 1, files: chart(chartVersion, app))
            try repo.git("tag", "controller-v\(app)")
            try repo.git("tag", "helm-chart-\(chartVersion)")
        }
        try Self.commit(repo, "Fix a config reload race", day: 5, files: ["internal/a.go": "package internal\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"controller-v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "tag") as? String == "controller-v1.15.1", "\(bump)")
    }
}
