import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the ninth out-of-sample round of the back-test found (session 66: opentelemetry-go-contrib,
/// lexical, typos, …), each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound9CLITests {
    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    @discardableResult
    static func commit(_ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    /// opentelemetry-go-contrib releases its stable modules together (`v1.38.0`,
    /// `detectors/gcp/v1.38.0`), and its root module path has no `/v2`: a breaking change gives
    /// the root a minor (Go's major version rule), yet the lockstep group took the changes' major
    /// and proposed 2.0.0 for every member (9 of its 10 release points).
    @Test func aLockstepGroupKeepsGosMajorVersionRule() throws {
        let repo = try GitRepository()
        let config = """
            [project]
            name = "contrib"
            tag-format = "v{version}"

            [workspace]
            members = [".", "detectors/gcp"]
            tag-format = "{member}/v{version}"

            [workspace.tag-formats]
            gcp = "detectors/gcp/v{version}"

            [[workspace.group]]
            name = "contrib"
            members = ["contrib", "gcp"]

            """
        try Self.commit(
            repo, "Release v1.38.0", day: 1,
            files: [
                "relctl.toml": config, "go.mod": "module go.opentelemetry.io/contrib\n\ngo 1.23\n",
                "version.go": "package contrib\n", "detectors/gcp/go.mod": "module go.opentelemetry.io/contrib/detectors/gcp\n\ngo 1.23\n",
                "detectors/gcp/gcp.go": "package gcp\n",
            ])
        try repo.git("tag", "v1.38.0")
        try repo.git("tag", "detectors/gcp/v1.38.0")
        try Self.commit(repo, "feat!: drop the deprecated option", day: 2, files: ["version.go": "package contrib\n// v2\n"])
        try Self.commit(repo, "fix(gcp): read the zone", day: 3, files: ["detectors/gcp/gcp.go": "package gcp\n// zone\n"])
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.map { $0["next"] as? String } == ["1.39.0", "1.39.0"], "\(plan)")
        #expect(members.map { $0["tag"] as? String } == ["v1.39.0", "detectors/gcp/v1.39.0"], "\(plan)")
    }

    /// lexical tags each release on a commit of its own that main never merges (`v0.39.0` …
    /// `v0.49.0`, a minor every time): init read the cadence from the merged releases alone, found
    /// none, and proposed patches for untyped histories (9 of its 10 release points).
    @Test func releasesTaggedOffTheBranchStillGiveTheCadence() throws {
        let repo = try GitRepository()
        let manifest = { (version: String) in "{\n  \"name\": \"lexical\",\n  \"version\": \"\(version)\"\n}\n" }
        var day = 1
        try Self.commit(repo, "Initial commit", day: day, files: ["package.json": manifest("0.30.0"), "src/a.js": "a\n"])
        try repo.git("tag", "v0.30.0")
        for minor in 31...38 {
            day += 1
            try Self.commit(repo, "[lexical] Bug Fix: mend \(minor)", day: day, files: ["src/a.js": "a \(minor)\n"])
            // The release commit is made on a detached head and tagged there; main goes on.
            try repo.git("checkout", "-q", "--detach")
            day += 1
            try Self.commit(repo, "v0.\(minor).0", day: day, files: ["package.json": manifest("0.\(minor).0")])
            try repo.git("tag", "v0.\(minor).0")
            try repo.git("checkout", "-q", "main")
        }
        try Self.commit(repo, "[lexical-table] Bug Fix: keep the selection", day: day + 1, files: ["src/a.js": "b\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("cadence = \"minor\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["next"] as? String == "0.39.0", "\(plan)")
    }

    /// dask tags a release most months, `YYYY.M.P` named after the month it was tagged in, and
    /// once tagged `1.0` (a history it merged): init read the monthly run as a year counter (a
    /// count of the year's releases) and the one `1.0` made every next tag drop its `.0`
    /// (`2026.2` for 2026.2.0).
    @Test func aMonthlyCalendarIsNoYearCounterAndOneShortTagSpellsNothing() throws {
        let repository = try GitRepository()
        let pyproject = { (version: String) in "[project]\nname = \"dask\"\nversion = \"\(version)\"\n" }
        try repository.commit("Start", files: ["pyproject.toml": pyproject("1.0")], date: "2024-03-12T10:00:00Z")
        try repository.git("tag", "1.0")
        let releases = [
            ("2025.7.0", "2025-07-11"), ("2025.8.0", "2025-08-15"), ("2025.9.0", "2025-09-12"),
            ("2025.10.0", "2025-10-17"), ("2025.11.0", "2025-11-14"), ("2025.12.0", "2025-12-12"),
            ("2026.1.0", "2026-01-16"),
        ]
        for (version, day) in releases {
            try repository.commit("Release \(version)", files: ["pyproject.toml": pyproject(version)], date: day + "T10:00:00Z")
            try repository.git("tag", version)
        }
        try repository.commit("Fix the scheduler", files: ["dask/a.py": "a\n"], date: "2026-01-20T10:00:00Z")
        #expect(try relctl(["init", "--quiet"], in: repository.url).status == 0)
        let config = try repository.directory.read("relctl.toml")
        #expect(!config.contains("year-counter"), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repository.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        let tag = try #require(members.first?["tag"] as? String, "\(plan)")
        #expect(tag.split(separator: ".").count == 3 && tag.hasPrefix("2026."), "\(plan)")
    }

    /// tokei tags every release `v13.0.0` and, for a while, also `tokei@13.0.0` on the same
    /// commit: init took the project-named twin series (7 tags) over the bare one (36), and every
    /// proposed tag was spelled `tokei@…` (8 of its 10 tag spellings).
    @Test func aNamedTwinOfTheBareSeriesIsNotTheFormat() throws {
        let repository = try GitRepository()
        let cargo = { (version: String) in "[package]\nname = \"tokei\"\nversion = \"\(version)\"\n" }
        for minor in 0...9 {
            let version = "12.\(minor).0"
            try Self.commit(repository, "Version \(version)", day: minor + 1, files: ["Cargo.toml": cargo(version)])
            try repository.git("tag", "v" + version)
            if minor >= 6 { try repository.git("tag", "tokei@" + version) }
        }
        try Self.commit(repository, "fix: count nested comments", day: 20, files: ["src/a.rs": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repository.url).status == 0)
        let config = try repository.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repository.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        // Ten minors in a row: the cadence gives the next one.
        #expect(members.first?["tag"] as? String == "v12.10.0", "\(plan)")
    }

    /// opentelemetry-go-contrib keeps `detectors/aws/ec2/v2` (module path ending in `/v2`) beside
    /// the v1 module in `detectors/aws/ec2`, and tags it `detectors/aws/ec2/v2.3.0`, as Go reads a
    /// major version subfolder: init in the subfolder wrote `detectors/aws/ec2/v2/v{version}`,
    /// so it found no release (7 of 10 points) and proposed the tag `v2.0.0` at its first.
    @Test func aMajorVersionSubfolderIsNoPartOfTheTagPrefix() throws {
        let repository = try GitRepository()
        try Self.commit(
            repository, "Add the v2 module", day: 1,
            files: [
                "go.mod": "module example.com/contrib\n\ngo 1.23\n",
                "detectors/ec2/go.mod": "module example.com/contrib/detectors/ec2\n\ngo 1.23\n",
                "detectors/ec2/v2/go.mod": "module example.com/contrib/detectors/ec2/v2\n\ngo 1.23\n",
                "detectors/ec2/v2/ec2.go": "package ec2\n",
            ])
        try repository.git("tag", "detectors/ec2/v1.9.0")
        try repository.git("tag", "detectors/ec2/v2.0.0")
        try Self.commit(repository, "feat(ec2): read the instance tags", day: 2, files: ["detectors/ec2/v2/ec2.go": "package ec2\n// tags\n"])
        try repository.git("tag", "detectors/ec2/v2.1.0")
        try Self.commit(repository, "fix(ec2): retry the metadata call", day: 3, files: ["detectors/ec2/v2/ec2.go": "package ec2\n// retry\n"])
        let folder = repository.url.appendingPathComponent("detectors/ec2/v2")
        #expect(try relctl(["init", "--quiet"], in: folder).status == 0)
        let config = try String(contentsOf: folder.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("tag-format = \"detectors/ec2/v{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: folder)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["current"] as? String == "2.1.0", "\(plan)")
        #expect(members.first?["tag"] as? String == "detectors/ec2/v2.1.1", "\(plan)")
    }

    /// Four of round 9's five testers typed `relctl bump --dry-run` (as `release` takes it) and
    /// got exit 64: bump writes nothing without `--write`, and now says so by taking the flag.
    @Test func bumpTakesDryRunAndWritesNothing() throws {
        let repository = try GitRepository()
        let cargo = "[package]\nname = \"velo\"\nversion = \"1.2.0\"\n"
        try Self.commit(repository, "Release 1.2.0", day: 1, files: ["Cargo.toml": cargo])
        try repository.git("tag", "v1.2.0")
        try Self.commit(repository, "fix: mend the parser", day: 2, files: ["src/a.rs": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repository.url).status == 0)
        let plain = try relctl(["bump"], in: repository.url)
        let dry = try relctl(["bump", "--dry-run"], in: repository.url)
        #expect(dry.status == 0 && dry.stdout == plain.stdout && dry.stdout.contains("1.2.1"), "\(dry)")
        #expect(try repository.directory.read("Cargo.toml") == cargo)
        let both = try relctl(["bump", "--dry-run", "--write"], in: repository.url)
        #expect(both.status == 64 && both.stderr.contains("--dry-run and --write"), "\(both)")
        #expect(try repository.directory.read("Cargo.toml") == cargo)
    }

    /// jQuery tags every release, patches too, on a commit main never merges: counting only the
    /// unmerged `.0` releases (the lexical fix's first form) read 3.0.0 … 3.5.0 as a minor every
    /// time and proposed 3.6.0 for a fix (6 of its 10 points in the whole run). Its patches are
    /// steps of the line as much as its minors: no cadence.
    @Test func offBranchPatchesAreStepsOfTheLineToo() throws {
        let repo = try GitRepository()
        let manifest = { (version: String) in "{\n  \"name\": \"jquery\",\n  \"version\": \"\(version)-pre\"\n}\n" }
        var day = 1
        try Self.commit(repo, "Initial commit", day: day, files: ["package.json": manifest("3.0.0"), "src/a.js": "a\n"])
        for version in ["3.0.0", "3.1.0", "3.1.1", "3.2.0", "3.2.1", "3.3.0", "3.3.1", "3.4.0", "3.4.1", "3.5.0"] {
            day += 1
            try Self.commit(repo, "Core: mend \(version)", day: day, files: ["src/a.js": "a \(version)\n"])
            try repo.git("checkout", "-q", "--detach")
            try Self.commit(repo, "\(version)", day: day, files: ["dist/jquery.js": version + "\n"])
            try repo.git("tag", version)
            try repo.git("checkout", "-q", "main")
        }
        try Self.commit(repo, "Ajax: fix the timeout", day: day + 1, files: ["src/a.js": "b\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("cadence = "), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["next"] as? String == "3.5.1", "\(plan)")
    }

    /// DataDog's extended-daemon-set chart says `version: v0.3.3` (Helm takes the `v`; every
    /// release since v0.1.0 is spelled so): `check` refused it with exit 2 in the workspace init
    /// wrote, and `bump --write` wrote `0.3.4` without the `v`.
    @Test func aChartVersionWithALeadingVIsReadAndKept() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "chore: charts", day: 1,
            files: [
                "charts/eds/Chart.yaml": "apiVersion: v2\nname: extendeddaemonset\nversion: v0.3.3\nappVersion: v0.3.3\n",
                "charts/other/Chart.yaml": "apiVersion: v2\nname: other\nversion: 1.2.0\n",
            ])
        try repo.git("tag", "extendeddaemonset-v0.3.3")
        try repo.git("tag", "other-1.2.0")
        try Self.commit(repo, "fix: the daemon's probe", day: 2, files: ["charts/eds/values.yaml": "probe: true\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)")
        #expect(try relctl(["validate-tag", "extendeddaemonset-v0.3.3"], in: repo.url).status == 0)
        let bump = try relctl(["bump", "--write", "--member", "extendeddaemonset"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        let chart = try String(contentsOf: repo.url.appendingPathComponent("charts/eds/Chart.yaml"), encoding: .utf8)
        #expect(chart.contains("\nversion: v0.3.4\n"), "\(chart)")
        #expect(chart.contains("\nappVersion: v0.3.3\n"), "\(chart)")
    }

    /// DataDog's datadog-operator chart tags its `-dev.N` counters as releases
    /// (`datadog-operator-2.25.0-dev.1`, `-dev.2`, …, then 2.25.0): a Chart.yaml holding
    /// `2.25.0-dev.2` is that release, not 2.25.0's development marker (relctl proposed 2.25.0
    /// at 4 of the line's 10 points and, at one, read 2.23.2 as the latest release).
    @Test func aTaggedDevCounterIsAReleaseNotAMarker() throws {
        let repo = try GitRepository()
        let chart = { (version: String) in "apiVersion: v2\nname: datadog-operator\nversion: \(version)\n" }
        try Self.commit(
            repo, "Release 2.24.0", day: 1,
            files: [
                "charts/datadog-operator/Chart.yaml": chart("2.24.0"),
                "charts/datadog/Chart.yaml": "apiVersion: v2\nname: datadog\nversion: 3.1.0\n",
            ])
        try repo.git("tag", "datadog-operator-2.24.0")
        try repo.git("tag", "datadog-3.1.0")
        try Self.commit(
            repo, "Update operator for 1.29.0-rc.1", day: 2, files: ["charts/datadog-operator/Chart.yaml": chart("2.25.0-dev.1")])
        try repo.git("tag", "datadog-operator-2.25.0-dev.1")
        try Self.commit(
            repo, "Add untaint controller config", day: 3,
            files: ["charts/datadog-operator/Chart.yaml": chart("2.25.0-dev.2"), "charts/datadog-operator/values.yaml": "untaint: true\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        let row = members.first { $0["name"] as? String == "datadog-operator" }
        #expect(row?["current"] as? String == "2.25.0-dev.1", "\(plan)")
        #expect(row?["next"] as? String == "2.25.0-dev.2", "\(plan)")
        #expect(!plan.stderr.contains("development version"), "\(plan)")
    }

    /// otelhttp released v0.47.0 … v0.61.0, a minor every time and no patch in two years; its
    /// `feat` subjects explained most of the last six steps, so init dropped the cadence as
    /// needless, and a range of fixes alone got 0.61.1 where the project released 0.62.0 (5 of 10
    /// points). A run of twelve minors is the project's rule when some of its minors held no
    /// feat (otelhttp's many); a short one is not. (A long run each of whose steps a feat
    /// explains is no rule: python-genai's, in OutOfSampleRound15LeftoversCLITests.)
    @Test func aLongRunOfMinorsKeepsItsCadence() throws {
        for (releases, expected) in [(15, "0.62.0"), (7, "0.\(47 + 7 - 1).1")] {
            let repo = try GitRepository()
            try Self.commit(repo, "chore: start", day: 1, files: ["go.mod": "module example.com/otelhttp\n\ngo 1.23\n"])
            for index in 0..<releases {
                let type = index % 3 == 1 ? "fix" : "feat"
                try Self.commit(repo, "\(type): handler option \(index)", day: 2 + index, files: ["option\(index).go": "package otelhttp\n"])
                try repo.git("tag", "v0.\(47 + index).0")
            }
            try Self.commit(repo, "fix: close the body", day: 2 + releases, files: ["body.go": "package otelhttp\n"])
            let initialized = try relctl(["init", "--quiet"], in: repo.url)
            #expect(initialized.status == 0, "\(initialized)")
            let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
            let plan = try relctl(["plan", "--json"], in: repo.url)
            let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
            #expect(members.first?["next"] as? String == expected, "\(releases) releases\n\(config)\n\(plan)")
        }
    }

    /// Where no manifest names the project, init named it after the folder it was cloned into,
    /// though `origin` names the repository (lexical, floating-ui); and typos' `setup.py`, which
    /// pre-commit needs as `pre_commit_placeholder_package` 0.0.0, named typos so.
    @Test func aProjectNoManifestNamesTakesTheRepositorysName() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "chore: start", day: 1, files: ["README.md": "# lexical\n"])
        try repo.git("remote", "add", "origin", "https://github.com/facebook/lexical.git")
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("name = \"lexical\""), "\(config)")
        // In a subfolder the folder names it (formatjs' `packages/react-intl`, tagged
        // `react-intl@10.1.13`): the repository's name would read another tag series.
        try Self.commit(repo, "chore: a package", day: 2, files: ["packages/react-intl/BUILD.bazel": "# bazel\n"])
        let folder = repo.url.appendingPathComponent("packages/react-intl")
        #expect(try relctl(["init", "--quiet"], in: folder).status == 0)
        let inFolder = try String(contentsOf: folder.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(inFolder.contains("name = \"react-intl\""), "\(inFolder)")

        let typos = try GitRepository()
        try Self.commit(
            typos, "chore: start", day: 1,
            files: [
                "setup.py": "from setuptools import setup\n\nsetup(\n    name='pre_commit_placeholder_package',\n    version='0.0.0',\n)\n",
                "README.md": "# typos\n",
            ])
        try typos.git("remote", "add", "origin", "git@github.com:crate-ci/typos.git")
        #expect(try relctl(["init", "--quiet"], in: typos.url).status == 0)
        let written = try String(contentsOf: typos.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(written.contains("name = \"typos\""), "\(written)")
    }

    /// kedacore/charts keeps each chart in a top-level folder (`keda/`, `http-add-on/`), none at
    /// the root: init wrote one project from `keda/Chart.yaml`, tagged `v{version}`, and the
    /// add-on's commits were listed in KEDA's notes.
    @Test func chartsInTopLevelFoldersAreMembers() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "chore: charts", day: 1,
            files: [
                "keda/Chart.yaml": "apiVersion: v2\nname: keda\nversion: 2.20.2\n",
                "http-add-on/Chart.yaml": "apiVersion: v2\nname: keda-add-ons-http\nversion: 0.12.2\n",
                "README.md": "# charts\n",
            ])
        try repo.git("tag", "v2.20.2")
        try repo.git("tag", "keda-add-ons-http-v0.12.2")
        try Self.commit(repo, "fix(http-add-on): the interceptor's port", day: 2, files: ["http-add-on/values.yaml": "port: 8080\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("members = [\"http-add-on\", \"keda\"]"), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        let rows = Dictionary(uniqueKeysWithValues: members.compactMap { row in
            (row["name"] as? String).map { ($0, (row["next"] as? String) ?? "-") }
        })
        #expect(rows == ["keda-add-ons-http": "0.12.3", "keda": "-"], "\(config)\n\(plan)")
    }

    /// typos-dict releases a `feat(dict)` dictionary update as a patch each month, fix releases
    /// between them (0.13.12 … 0.13.30, no minor since 0.13.0): over a workspace member's last six
    /// releases one feat patch showed, too few for Cargo's 0.x rule, and relctl proposed 0.14.0
    /// where the project released 0.13.31. Read over eleven, as for a single crate.
    @Test func aWorkspaceMembersZeroMajorRuleIsReadOverElevenReleases() throws {
        let repo = try GitRepository()
        let cargo = { (name: String, version: String) in "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n" }
        try Self.commit(
            repo, "chore: start", day: 1,
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/typos-dict\", \"crates/typos-cli\"]\n",
                "crates/typos-dict/Cargo.toml": cargo("typos-dict", "0.13.20"), "crates/typos-dict/src/lib.rs": "\n",
                "crates/typos-cli/Cargo.toml": cargo("typos-cli", "1.30.0"), "crates/typos-cli/src/main.rs": "fn main() {}\n",
            ])
        try repo.git("tag", "typos-dict-v0.13.20")
        try repo.git("tag", "typos-cli-v1.30.0")
        // Ten steps: feat patches at the 2nd and 6th, fixes at the rest (the last five hold one feat).
        for step in 1...10 {
            let feat = step == 2 || step == 6
            try Self.commit(
                repo, feat ? "feat(dict): month \(step) updates" : "fix(dict): correction \(step)", day: 1 + step,
                files: ["crates/typos-dict/src/lib.rs": "// \(step)\n", "crates/typos-dict/Cargo.toml": cargo("typos-dict", "0.13.\(20 + step)")])
            try repo.git("tag", "typos-dict-v0.13.\(20 + step)")
        }
        try Self.commit(repo, "feat(dict): June updates", day: 20, files: ["crates/typos-dict/src/lib.rs": "// june\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("zero-major = \"cargo\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        let dict = members.first { $0["name"] as? String == "typos-dict" }
        #expect(dict?["next"] as? String == "0.13.31", "\(config)\n\(plan)")
    }

    /// init lists the files the latest release commit moved from the previous version to its own.
    /// wasm-bindgen's release commit of 0.2.100 moved `SCHEMA_VERSION` 0.2.99 → 0.2.100, a
    /// constant that held 0.2.96 at 0.2.97 and 0.2.98; opentelemetry-go-contrib's moved sibling
    /// modules' `require` lines in 23 go.mod files. Both were listed, for `bump --write` to
    /// rewrite; a version file that held each release's version stays listed.
    @Test func onlyFilesThatHeldEachReleasesVersionAreAdopted() throws {
        let repo = try GitRepository()
        let releases: [(version: String, schema: String)] = [
            ("0.2.97", "0.2.96"), ("0.2.98", "0.2.96"), ("0.2.99", "0.2.99"), ("0.2.100", "0.2.100"),
        ]
        var previous = "0.2.96"
        for (index, release) in releases.enumerated() {
            try Self.commit(
                repo, "Release \(release.version)", day: 1 + index,
                files: [
                    "Cargo.toml": "[package]\nname = \"bindgen\"\nversion = \"\(release.version)\"\nedition = \"2021\"\n",
                    "src/lib.rs": "pub const SCHEMA_VERSION: &str = \"\(release.schema)\";\n",
                    "src/version.rs": "pub const VERSION: &str = \"\(release.version)\";\n",
                    "tools/go.mod": "module example.com/tools\n\nrequire example.com/bindgen v\(release.version)\n",
                    "tools/main.go": "package main\n// after \(previous)\n",
                ])
            try repo.git("tag", release.version)
            previous = release.version
        }
        try Self.commit(repo, "fix: the closure's drop", day: 9, files: ["src/closure.rs": "// drop\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("path = \"src/version.rs\""), "\(config)")
        #expect(!config.contains("path = \"src/lib.rs\""), "\(config)")
        #expect(!config.contains("go.mod"), "\(config)")
    }

    /// faker's `.bumpversion.cfg` says which files carry the version (`files = VERSION
    /// faker/__init__.py docs/conf.py`); init read its `current_version` but not the list, so
    /// `bump --write` left docs/conf.py's `version` and `release` at the old version.
    @Test func bumpversionsFilesAreListedEachLineToo() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "Bump version: 40.34.0 → 40.35.0", day: 1,
            files: [
                ".bumpversion.cfg": "[bumpversion]\ncurrent_version = 40.35.0\nfiles = VERSION faker/__init__.py docs/conf.py\ncommit = True\n\n[bumpversion:file:tools/release.sh]\n",
                "VERSION": "40.35.0\n",
                "faker/__init__.py": "VERSION = \"40.35.0\"\n__version__ = VERSION\n",
                "docs/conf.py": "project = \"Faker\"\n# The short X.Y version.\nversion = \"40.35.0\"\n# The full version.\nrelease = \"40.35.0\"\n",
                "tools/release.sh": "#!/bin/sh\nFAKER_VERSION=40.35.0\n",
            ])
        try repo.git("tag", "v40.35.0")
        try Self.commit(repo, "Add a provider", day: 2, files: ["faker/providers/cat.py": "\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(try relctl(["check"], in: repo.url).status == 0, "\(config)")
        let bump = try relctl(["bump", "--write", "--set", "40.36.0"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        for path in ["VERSION", "faker/__init__.py", "docs/conf.py", "tools/release.sh", ".bumpversion.cfg"] {
            let text = try String(contentsOf: repo.url.appendingPathComponent(path), encoding: .utf8)
            #expect(!text.contains("40.35.0") && text.contains("40.36.0"), "\(path): \(text)\n\(config)")
        }
    }

    /// nats-server keeps `VERSION = "2.15.0-dev"` in `server/const.go` while main prepares 2.15.0
    /// (2.14.x ships from a release branch): init read Go constants only at the top and in
    /// `version/`, and only one naming the latest release, so plan proposed 2.14.6.
    @Test func aGoDevelopmentConstantOneFolderDownGivesTheNextRelease() throws {
        let repo = try GitRepository()
        let constants = { (version: String) in "package server\n\nconst (\n\t// VERSION is the current version.\n\tVERSION = \"\(version)\"\n)\n" }
        try Self.commit(
            repo, "Release v2.14.5", day: 1,
            files: ["go.mod": "module github.com/nats-io/nats-server/v2\n\ngo 1.23\n", "main.go": "package main\n", "server/const.go": constants("2.14.5")])
        try repo.git("tag", "v2.14.5")
        try Self.commit(repo, "Start 2.15.0", day: 2, files: ["server/const.go": constants("2.15.0-dev")])
        try Self.commit(repo, "Fix the route pool", day: 3, files: ["server/route.go": "package server\n"])
        let initialized = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialized.status == 0, "\(initialized)")
        let config = try String(contentsOf: repo.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("path = \"server/const.go\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try #require(try Self.field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        #expect(members.first?["next"] as? String == "2.15.0", "\(config)\n\(plan)")

        // uber-go/fx goes "back to development" at the next minor after each release, then
        // releases patches from it too (1.19.2 from `1.20.0-dev`): there the marker binds nothing.
        let fx = try GitRepository()
        let version = { (text: String) in "package fx\n\n// Version is exported for runtime compatibility checks.\nconst Version = \"\(text)\"\n" }
        try Self.commit(fx, "Prepare release v1.19.1", day: 1, files: ["go.mod": "module go.uber.org/fx\n\ngo 1.22\n", "version.go": version("1.19.1")])
        try fx.git("tag", "v1.19.1")
        try Self.commit(fx, "Back to development", day: 2, files: ["version.go": version("1.20.0-dev")])
        try Self.commit(fx, "Fix a lifecycle leak", day: 3, files: ["app.go": "package fx\n"])
        try Self.commit(fx, "Prepare release v1.19.2", day: 4, files: ["version.go": version("1.19.2")])
        try fx.git("tag", "v1.19.2")
        try Self.commit(fx, "Back to development", day: 5, files: ["version.go": version("1.20.0-dev")])
        try Self.commit(fx, "Add fx.Private", day: 6, files: ["private.go": "package fx\n"])
        try Self.commit(fx, "Prepare release v1.20.0", day: 7, files: ["version.go": version("1.20.0")])
        try fx.git("tag", "v1.20.0")
        try Self.commit(fx, "Back to development", day: 8, files: ["version.go": version("1.21.0-dev")])
        try Self.commit(fx, "Fix the decorator's scope", day: 9, files: ["decorate.go": "package fx\n"])
        #expect(try relctl(["init", "--quiet"], in: fx.url).status == 0)
        let fxConfig = try String(contentsOf: fx.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
        let fxPlan = try relctl(["plan", "--json"], in: fx.url)
        let fxMembers = try #require(try Self.field(fxPlan.stdout, "members") as? [[String: Any]], "\(fxPlan)")
        #expect(fxMembers.first?["next"] as? String == "1.20.1", "\(fxConfig)\n\(fxPlan)")
    }
}
