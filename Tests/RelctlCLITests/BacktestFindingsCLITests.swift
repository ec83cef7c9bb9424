import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63: the relctl bugs the back-test (`scripts/backtest`) found on real histories, each
/// rebuilt as a generated repository of the same shape and driven through the built binary the
/// way a new user would (`init`, then `bump`/`plan`).
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct BacktestFindingsCLITests {
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try repo.commit(message, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
    }

    static func field(_ json: String, _ key: String) throws -> Any? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?[key]
    }

    /// `relctl init` as a newcomer runs it, then `plan --json`: the relctl.toml it wrote and the
    /// plan's members (each expected to succeed).
    static func initialisedPlan(_ repo: GitRepository) throws -> (config: String, members: [[String: Any]]) {
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try #require(try field(plan.stdout, "members") as? [[String: Any]], "\(plan)")
        return (try repo.directory.read("relctl.toml"), members)
    }

    /// A Cargo workspace of 30 crates, each depending on the one before, their manifests padded
    /// to about 8 KB with comments so that reading them dominates a count of bytes read; all
    /// tagged `crate_NN-v0.1.0`, then a fix in crate_07. Returns it and the manifests' size.
    static func paddedCargoWorkspace() throws -> (GitRepository, Int) {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n")
        let padding = String(repeating: "# " + String(repeating: "x", count: 78) + "\n", count: 100)
        var manifestBytes = 0
        let crates = 30
        for index in 0..<crates {
            let name = String(format: "crate_%02d", index)
            let dependency = index == 0 ? "" : String(format: "crate_%02d = { path = \"../crate_%02d\" }\n", index - 1, index - 1)
            let text = "[package]\nname = \"\(name)\"\nversion = \"0.1.0\"\n\n[dependencies]\n\(dependency)\(padding)"
            manifestBytes += text.utf8.count
            try repo.directory.write("crates/\(name)/Cargo.toml", text)
            try repo.directory.write("crates/\(name)/src/lib.rs", "\n")
        }
        try commit(repo, "chore: release", day: 1)
        for index in 0..<crates { try repo.git("tag", String(format: "crate_%02d-v0.1.0", index)) }
        try commit(repo, "fix: a bug", day: 2, files: ["crates/crate_07/src/lib.rs": "// fixed\n"])
        return (repo, manifestBytes)
    }

    /// The `next` of the member at `path` in `plan --json`.
    static func planNext(_ json: String, _ path: String) throws -> String? {
        let members = try field(json, "members") as? [[String: Any]] ?? []
        return members.first { $0["path"] as? String == path }?["next"] as? String
    }

    /// httpx: a `1.0.0b0` tagged on master in 2019, then master went on releasing 0.x finals
    /// (0.24.0 … 0.28.1). The beta is abandoned: the latest release is the newest final, and the
    /// next is its patch, not `1.0.0b1`. A prerelease the branch has not left (no final after it)
    /// still counts: its line continues.
    @Test func prereleaseFollowedByLowerFinalsOnTheBranchIsAbandoned() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml", "[project]\nname = \"httpx\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\npath = \"httpx/__version__.py\"\n")
        try repo.directory.write("httpx/__version__.py", "__version__ = \"0.9.0\"\n")
        try Self.commit(repo, "Version 0.9.0", day: 1)
        try repo.git("tag", "0.9.0")
        try Self.commit(repo, "Version 1.0.0b0", day: 2, files: ["httpx/__version__.py": "__version__ = \"1.0.0b0\"\n"])
        try repo.git("tag", "1.0.0b0")
        try Self.commit(repo, "Back to the 0.x line", day: 3, files: ["a.py": "a\n"])
        try Self.commit(repo, "Version 0.10.0", day: 4, files: ["httpx/__version__.py": "__version__ = \"0.10.0\"\n"])
        try repo.git("tag", "0.10.0")
        try Self.commit(repo, "Fix a crash on empty bodies", day: 5, files: ["b.py": "b\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "0.10.0", "not the 2019 beta: \(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "0.10.1", "\(bump)")
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(try Self.field(notes.stdout, "previous") as? String == "0.10.0", "\(notes)")

        // A beta the branch has not left behind is still the latest release.
        let live = try GitRepository()
        try live.directory.write("relctl.toml", "[project]\nname = \"live\"\ntag-format = \"{version}\"\n")
        try Self.commit(live, "chore: start", day: 1)
        try live.git("tag", "0.9.0")
        try Self.commit(live, "feat: the new api", day: 2)
        try live.git("tag", "1.0.0-beta.0")
        try Self.commit(live, "fix: after the beta", day: 3)
        let next = try relctl(["bump", "--json"], in: live.url)
        #expect(try Self.field(next.stdout, "previous") as? String == "1.0.0-beta.0", "\(next)")
        #expect(try Self.field(next.stdout, "next") as? String == "1.0.0-beta.1", "\(next)")
    }

    /// pnpm: `v11.14.0` and `v12.0.0-alpha.14` tagged on one release commit, the next final and
    /// prerelease again together, then `v12.0.0-alpha.15-1` alone. The alphas are a line running
    /// beside main's finals: main's latest release is its newest final (failed before the fix:
    /// previous 12.0.0-alpha.14 and next 12.0.0-alpha.15, then 12.0.0-alpha.15-1 and its .1).
    @Test func prereleasesTaggedBesideTheFinalsNeverLiftTheBranch() throws {
        let repo = try GitRepository()
        try repo.directory.write("relctl.toml", "[project]\nname = \"pnpm\"\ntag-format = \"v{version}\"\n")
        try Self.commit(repo, "chore(release): 11.14.0, pacquet 12.0.0-alpha.14", day: 1)
        try repo.git("tag", "v11.14.0")
        try repo.git("tag", "v12.0.0-alpha.14")
        try Self.commit(repo, "fix: keep the wanted-dep cache clean", day: 2, files: ["a.txt": "a\n"])
        let first = try relctl(["bump", "--json"], in: repo.url)
        #expect(first.status == 0, "\(first)")
        #expect(try Self.field(first.stdout, "current") as? String == "11.14.0", "\(first)")
        #expect(try Self.field(first.stdout, "previous") as? String == "v11.14.0", "\(first)")
        #expect(try Self.field(first.stdout, "next") as? String == "11.14.1", "\(first)")

        try Self.commit(repo, "chore(release): 11.15.0, pacquet 12.0.0-alpha.15", day: 3, files: ["b.txt": "b\n"])
        try repo.git("tag", "v11.15.0")
        try repo.git("tag", "v12.0.0-alpha.15")
        try Self.commit(repo, "chore(release): pacquet 12.0.0-alpha.15-1", day: 4, files: ["c.txt": "c\n"])
        try repo.git("tag", "v12.0.0-alpha.15-1")
        try Self.commit(repo, "feat: hoist optional peers", day: 5, files: ["d.txt": "d\n"])
        let second = try relctl(["bump", "--json"], in: repo.url)
        #expect(second.status == 0, "\(second)")
        #expect(try Self.field(second.stdout, "current") as? String == "11.15.0", "\(second)")
        #expect(try Self.field(second.stdout, "previous") as? String == "v11.15.0", "\(second)")
        #expect(try Self.field(second.stdout, "next") as? String == "11.16.0", "\(second)")
    }

    /// vite: a pnpm workspace whose `vite` package is tagged `v8.0.16`, `v8.1.0-beta.0` (the
    /// repository's bare series) while the others are tagged `plugin-legacy@8.0.1`,
    /// `create-vite@9.0.6`. At the commit before 8.1.0 the package holds `8.1.0-beta.0`, the
    /// bare series' newest tag: the series is vite's (failed before the fix: init wrote no format
    /// for vite, so it took `{member}@{version}` and found no release).
    @Test func theBareSeriesBelongsToTheMemberHoldingItsNewestPrerelease() throws {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String) -> String {
            #"{"name": "\#(name)", "version": "\#(version)"}"#
        }
        try Self.commit(
            repo, "release: v8.0.16", day: 1,
            files: [
                "package.json": #"{"name": "vite-monorepo", "private": true}"#,
                "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
                "packages/vite/package.json": package("vite", "8.0.16"),
                "packages/plugin-legacy/package.json": package("@vitejs/plugin-legacy", "8.0.1"),
                "packages/create-vite/package.json": package("create-vite", "9.0.6"),
            ])
        try repo.git("tag", "v8.0.16")
        try repo.git("tag", "plugin-legacy@8.0.1")
        try repo.git("tag", "create-vite@9.0.6")
        try Self.commit(
            repo, "release: v8.1.0-beta.0", day: 2,
            files: ["packages/vite/package.json": package("vite", "8.1.0-beta.0")])
        try repo.git("tag", "v8.1.0-beta.0")
        try Self.commit(repo, "fix(css): keep the order", day: 3, files: ["packages/vite/src.ts": "a\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try repo.directory.read("relctl.toml")
        #expect(written.contains(#"vite = "v{version}""#), "\(written)")
        let (planned, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(planned.status == 0, "\(planned)")
        let vite = try #require(members.first { $0.path == "packages/vite" }, "\(members)")
        #expect(vite.current == "8.1.0-beta.0", "\(members)")
        #expect(vite.tag?.hasPrefix("v8.1.0") == true, "\(members)")
    }

    /// Twisted: the package is `Twisted`, its tags `twisted-22.1.0` … `twisted-24.7.0`, its version
    /// in no manifest. `init` reads the tags as the project's series (its name in another case)
    /// and `bump` counts from the newest.
    @Test func initReadsTagsNamedAfterTheProjectInAnotherCase() throws {
        let repo = try GitRepository()
        // The version is incremental's `Version("Twisted", 24, 3, 0)`: no manifest names it.
        try repo.directory.write("pyproject.toml", "[project]\nname = \"Twisted\"\ndynamic = [\"version\"]\n")
        for (day, version) in ["22.1.0", "23.8.0", "24.3.0"].enumerated() {
            try Self.commit(repo, "Release \(version)", day: day + 1, files: ["NEWS.rst": version + "\n"])
            try repo.git("tag", "twisted-\(version)")
        }
        try Self.commit(repo, "Remove a deprecated module", day: 10, files: ["a.py": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"twisted-{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "previous") as? String == "twisted-24.3.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "twisted-24.3.1", "\(bump)")

        // Twisted in 2022: pyproject.toml names no project; setup.cfg's `[metadata]` does.
        let older = try GitRepository()
        try older.directory.write("pyproject.toml", "[build-system]\nrequires = [\"setuptools\"]\n")
        try older.directory.write("setup.cfg", "[metadata]\nname = Twisted\nversion = attr: twisted.__version__\n")
        try Self.commit(older, "Release 22.4.0", day: 1)
        try older.git("tag", "twisted-22.4.0")
        try Self.commit(older, "Fix a conch bug", day: 2, files: ["a.py": "a\n"])
        let olderInit = try relctl(["init", "--quiet"], in: older.url)
        #expect(olderInit.status == 0, "\(olderInit)")
        let olderConfig = try older.directory.read("relctl.toml")
        #expect(olderConfig.contains("name = \"Twisted\"") && olderConfig.contains("tag-format = \"twisted-{version}\""), "\(olderConfig)")
    }

    /// yargs: 176 `v*` tags, and two old `yargs-v16.2.1`, `yargs-v7.1.2` of 2021. The series the
    /// recent history uses (the one whose tag names the version package.json holds; ten bare
    /// releases since the named ones) wins over the two named after the package.
    @Test func initPrefersTheSeriesNamingTheManifestVersionOverOldNamedTags() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"yargs\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "chore: release 16.2.0", day: 1, files: manifest("16.2.0"))
        try repo.git("tag", "v16.2.0")
        try Self.commit(repo, "fix: a backport", day: 2, files: ["a.js": "a\n"])
        try repo.git("tag", "yargs-v16.2.1")
        try repo.git("tag", "yargs-v7.1.2")
        for minor in 0...9 {
            let version = minor == 9 ? "17.5.0" : "17.0.\(minor)"
            try Self.commit(repo, "chore: release \(version)", day: 3 + minor, files: manifest(version))
            try repo.git("tag", "v\(version)")
        }
        try Self.commit(repo, "fix: strict mode with async middleware", day: 20, files: ["b.js": "b\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "previous") as? String == "v17.5.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "17.5.1", "\(bump)")

        // On the 17.x.x branch the manifest holds `17.5.1-candidate.0`, which no tag names: the ten
        // bare releases since the named tags still make `v{version}` the series.
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try Self.commit(repo, "chore: bump version for prerelease", day: 21, files: manifest("17.5.1-candidate.0"))
        let again = try relctl(["init", "--quiet"], in: repo.url)
        #expect(again.status == 0, "\(again)")
        let second = try repo.directory.read("relctl.toml")
        #expect(second.contains("tag-format = \"v{version}\""), "\(second)")
    }

    /// ripgrep: the root Cargo.toml is the `ripgrep` package and a `[workspace]` of `crates/*`.
    /// Cargo counts the root package as a member; so does `init`: `plan` has a `.` row, released
    /// by the bare `14.1.0` tags, counting only the commits outside the other members.
    @Test func initKeepsTheRootPackageOfACargoWorkspace() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml",
            "[package]\nname = \"ripgrep\"\nversion = \"14.1.0\"\n\n[workspace]\nmembers = [\"crates/globset\", \"crates/ignore\"]\n")
        try repo.directory.write("crates/core/main.rs", "fn main() {}\n")
        try repo.directory.write("crates/ignore/Cargo.toml", "[package]\nname = \"ignore\"\nversion = \"0.4.22\"\n")
        try repo.directory.write("crates/ignore/src/lib.rs", "\n")
        try repo.directory.write("crates/globset/Cargo.toml", "[package]\nname = \"globset\"\nversion = \"0.4.14\"\n")
        try repo.directory.write("crates/globset/src/lib.rs", "\n")
        try Self.commit(repo, "14.1.0", day: 1)
        try repo.git("tag", "14.1.0")
        try repo.git("tag", "ignore-0.4.22")
        try repo.git("tag", "globset-0.4.14")
        try Self.commit(repo, "ignore: fix a crash", day: 2, files: ["crates/ignore/src/lib.rs": "// fixed\n"])
        try Self.commit(repo, "core: fix the --files output", day: 3, files: ["crates/core/main.rs": "fn main() { }\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let (plan, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let root = members.first { $0.path == "." }
        #expect(root?.name == "ripgrep", "\(plan.stdout)")
        #expect(root?.current == "14.1.0" && root?.next == "14.1.1" && root?.tag == "14.1.1", "\(plan.stdout)")
        #expect(root?.commits == 1, "only the commit outside crates/ignore: \(plan.stdout)")
        let ignore = members.first { $0.path == "crates/ignore" }
        #expect(ignore?.next == "0.4.23" && ignore?.tag == "ignore-0.4.23", "\(plan.stdout)")
    }

    /// express: bare `4.21.x` tags (the 4.x branch) and `5.0.0-beta.2`, then `v5.0.0` spelt with a
    /// `v`. `init` keeps the recent bare spelling; the latest release `main` sees is `v5.0.0`, the
    /// other spelling's final, not the beta it finalised: a `feat` gives 5.1.0, not `5.0.0-beta.3`.
    @Test func latestReleaseCountsAFinalTaggedInTheOtherSpelling() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"express\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "4.19.2", day: 1, files: manifest("4.19.2"))
        try repo.git("tag", "4.19.2")
        try Self.commit(repo, "5.0.0-beta.2", day: 2, files: manifest("5.0.0-beta.2"))
        try repo.git("tag", "5.0.0-beta.2")
        try repo.git("checkout", "-q", "-b", "4.x", "4.19.2")
        for (day, version) in ["4.20.0", "4.21.0", "4.21.1", "4.21.2"].enumerated() {
            try Self.commit(repo, version, day: 3 + day, files: manifest(version))
            try repo.git("tag", version)
        }
        try repo.git("checkout", "-q", "main")
        try Self.commit(repo, "5.0.0", day: 7, files: manifest("5.0.0"))
        try repo.git("tag", "v5.0.0")
        try Self.commit(repo, "feat: add a router option", day: 8, files: ["lib/router.js": "r\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        #expect(try repo.directory.read("relctl.toml").contains("tag-format = \"{version}\""))
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "v5.0.0", "not the beta: \(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "5.1.0", "\(bump)")

        // On the 4.x branch, which does not contain v5.0.0, the 4.x line goes on.
        try repo.git("checkout", "-q", "4.x")
        try Self.commit(repo, "fix: a 4.x backport", day: 9, files: ["lib/a.js": "a\n"])
        let branch = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(branch.stdout, "previous") as? String == "4.21.2", "\(branch)")
    }

    /// Twisted: `twisted-YY.M.P`, named after the month each was tagged in. `init` reads calendar
    /// versions. A calendar prerelease names the release it prepares: its final follows, within its
    /// month (24.2.0 in February) or after it (`22.1.0rc1` in January, 22.1.0 in February; the
    /// date's 24.3.0 was proposed before session 76). Ten of Twisted's eleven candidates since 2021
    /// were released under their own version; `24.2.0rc1` was the one renamed, to 24.3.0 in March.
    @Test func calendarMonthVersionsAndAPrereleaseOfAPastMonth() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"Twisted\"\ndynamic = [\"version\"]\n")
        for (version, date) in [
            ("23.8.0", "2023-08-28"), ("23.10.0", "2023-10-31"), ("24.2.0rc1", "2024-02-21"),
        ] {
            try repo.commit("Release \(version)", files: ["NEWS.rst": version + "\n"], date: date + "T10:00:00Z")
            try repo.git("tag", "twisted-\(version)")
        }
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("version-scheme = \"calver\""), "\(config)")

        try repo.commit("Fix a regression in the rc", files: ["a.py": "a\n"], date: "2024-02-26T10:00:00Z")
        let february = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(february.stdout, "tag") as? String == "twisted-24.2.0", "\(february)")
        try repo.commit("Prep for final release.", files: ["b.py": "b\n"], date: "2024-03-01T10:00:00Z")
        let march = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(march.stdout, "tag") as? String == "twisted-24.2.0", "\(march)")
        #expect(march.stderr.contains("twisted-24.2.0rc1 is a calendar prerelease"), "\(march)")

        // A SemVer project at major 24 in 2024 is not a calendar project: one major only.
        let semver = try GitRepository()
        try semver.directory.write("package.json", "{\n  \"name\": \"app\",\n  \"version\": \"24.3.0\"\n}\n")
        for (version, date) in [("24.1.0", "2024-01-10"), ("24.2.0", "2024-02-10"), ("24.3.0", "2024-03-10")] {
            try semver.commit("chore: release \(version)", date: date + "T10:00:00Z")
            try semver.git("tag", "v\(version)")
        }
        #expect(try relctl(["init", "--quiet"], in: semver.url).status == 0)
        #expect(!(try semver.directory.read("relctl.toml")).contains("calver"))
    }

    /// grpc-go tags `v1.80.0-dev` on master as 1.80's development opens (version.go holds
    /// `1.80.0-dev`): the next release is 1.80.0, not `1.80.0-dev.1`.
    @Test func aDevelopmentTagIsFollowedByItsFinal() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module google.golang.org/grpc\n\ngo 1.24\n")
        try Self.commit(repo, "Change version to 1.79.0 (#1)", day: 1, files: ["version.go": "package grpc\n\nconst Version = \"1.79.0\"\n"])
        try repo.git("tag", "v1.79.0")
        try Self.commit(repo, "Change version to 1.80.0-dev (#2)", day: 2, files: ["version.go": "package grpc\n\nconst Version = \"1.80.0-dev\"\n"])
        try repo.git("tag", "v1.80.0-dev")
        try Self.commit(repo, "xds: add panic recovery in resource unmarshalling (#3)", day: 3, files: ["xds.go": "package grpc\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "1.80.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "v1.80.0", "\(bump)")
    }

    /// axios: `init` run on the `v0.x` branch, while 1.x ships from `main`, writes a `[[branch]]`
    /// range for it: a fix there gives 0.27.3, not 1.1.1. On `main` it writes none.
    @Test func initWritesAMaintenanceRangeForTheBranchItRunsOn() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"axios\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "chore: release v0.27.2", day: 1, files: manifest("0.27.2"))
        try repo.git("tag", "v0.27.2")
        try Self.commit(repo, "feat!: fetch adapter", day: 2, files: manifest("1.0.0"))
        try repo.git("tag", "v1.0.0")
        try Self.commit(repo, "feat: form data", day: 3, files: manifest("1.1.0"))
        try repo.git("tag", "v1.1.0")
        try Self.commit(repo, "fix: headers", day: 4, files: ["lib/h.js": "h\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(!(try repo.directory.read("relctl.toml")).contains("[[branch]]"))
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))

        try repo.git("checkout", "-q", "-b", "v0.x", "v0.27.2")
        try Self.commit(repo, "fix: backport a security fix", day: 5, files: ["lib/a.js": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"v0.x\"\nrange = \"0.x\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "0.27.3", "\(bump)")

        // poetry's `1.8` branch after 1.8.0, the latest release: named after its line, a range too.
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try repo.git("checkout", "-q", "-b", "1.1", "v1.1.0")
        try Self.commit(repo, "fix: lazy wheel status codes", day: 6, files: ["lib/w.js": "w\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let line = try repo.directory.read("relctl.toml")
        #expect(line.contains("[[branch]]\nname = \"1.1\"\nrange = \"1.1.x\""), "\(line)")
    }

    /// vite's `v6.2` branch: packages/vite released 6.2.x there while `main` tagged v6.3.0, and its
    /// plugins release from `main` only. `init` on the branch writes a range for `vite` alone
    /// (a root range would bind every member), so a backported fix is 6.2.2, not 6.3.1; on `main`
    /// it writes none. A `members` entry naming no member, or `members` without a workspace, is
    /// refused (exit 2) naming it.
    @Test func initWritesAMaintenanceRangeForTheWorkspaceMembersTheBranchIsALineOf() throws {
        let repo = try GitRepository()
        func manifests(vite: String, legacy: String = "6.0.0") -> [String: String] {
            [
                "package.json": "{\n  \"name\": \"vite-monorepo\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
                "packages/vite/package.json": "{\n  \"name\": \"vite\",\n  \"version\": \"\(vite)\"\n}\n",
                "packages/plugin-legacy/package.json":
                    "{\n  \"name\": \"@vitejs/plugin-legacy\",\n  \"version\": \"\(legacy)\"\n}\n",
            ]
        }
        try Self.commit(repo, "release: v6.2.0", day: 1, files: manifests(vite: "6.2.0"))
        try repo.git("tag", "v6.2.0")
        try repo.git("tag", "plugin-legacy@6.0.0")
        try Self.commit(repo, "release: v6.2.1", day: 2, files: manifests(vite: "6.2.1"))
        try repo.git("tag", "v6.2.1")
        try repo.git("branch", "v6.2")
        try Self.commit(repo, "feat: environment api", day: 3, files: ["packages/vite/env.js": "env\n"])
        try Self.commit(repo, "release: v6.3.0", day: 4, files: manifests(vite: "6.3.0"))
        try repo.git("tag", "v6.3.0")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(!(try repo.directory.read("relctl.toml")).contains("[[branch]]"))
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))

        try repo.git("checkout", "-q", "v6.2")
        try Self.commit(repo, "fix: backport a css fix", day: 5, files: ["packages/vite/css.js": "css\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"v6.2\"\nrange = \"6.2.x\"\nmembers = [\"vite\"]\n"), "\(config)")
        #expect(config.contains("branches = [\"main\", \"master\", \"v6.2\"]"), "\(config)")
        let (result, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(result.status == 0, "\(result)")
        let vite = try #require(members.first { $0.name == "vite" }, "\(result)")
        #expect(vite.next == "6.2.2" && vite.tag == "v6.2.2" && vite.branch == "v6.2", "\(vite)")
        let legacy = try #require(members.first { $0.name == "plugin-legacy" }, "\(result)")
        #expect(legacy.branch == nil && legacy.next == nil, "\(legacy)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")

        try repo.directory.write("relctl.toml", config.replacingOccurrences(of: "members = [\"vite\"]", with: "members = [\"vit\"]"))
        let unknown = try relctl(["plan"], in: repo.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("`vit`") && unknown.stderr.contains("vite"), "\(unknown)")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"vite\"\n\n[[branch]]\nname = \"v6.2\"\nrange = \"6.2.x\"\nmembers = [\"vite\"]\n")
        let single = try relctl(["check"], in: repo.url)
        #expect(single.status == 2 && single.stderr.contains("no [workspace]"), "\(single)")
    }

    /// opentelemetry-go: `go.opentelemetry.io/otel` has no `/v2`, so Go refuses a v2.0.0 tag of
    /// it; its breaking changes ship in 1.x minors. relctl proposed 2.0.0 (five back-test points).
    /// Once go.mod names `/v2`, the next release is 2.0.0 whatever the commits say, and a
    /// breaking change in a `/v2` module is a minor again.
    @Test func aGoModuleReleasesOnlyTheMajorItsPathNames() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "feat: tracing", day: 1, files: ["go.mod": "module go.opentelemetry.io/otel\n\ngo 1.23\n"])
        try repo.git("tag", "v1.35.0")
        try Self.commit(repo, "feat!: drop the deprecated exporter", day: 2, files: ["trace.go": "package otel\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        try repo.git("add", "relctl.toml")
        try Self.commit(repo, "chore: relctl", day: 3)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "1.36.0", "\(bump)")
        #expect(bump.stderr.contains("change the path to `go.opentelemetry.io/otel/v2`"), "\(bump)")

        try Self.commit(repo, "fix: module path for v2", day: 4, files: ["go.mod": "module go.opentelemetry.io/otel/v2\n\ngo 1.23\n"])
        let moved = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(moved.stdout, "next") as? String == "2.0.0", "\(moved)")
        try repo.git("tag", "v2.0.0")
        try Self.commit(repo, "feat!: another break", day: 5, files: ["trace.go": "package otel // 2\n"])
        let again = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(again.stdout, "next") as? String == "2.1.0", "\(again)")
    }

    /// release-plz's own crates: a Cargo workspace whose 0.x crate released its feats as patches.
    /// `init` reads Cargo's 0.x rule from the member's own releases and writes it for the workspace.
    @Test func initReadsCargosZeroMajorRuleFromAWorkspaceMember() throws {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n")
        func crate(_ name: String, _ version: String) -> [String: String] {
            ["crates/\(name)/Cargo.toml": "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n"]
        }
        try Self.commit(repo, "chore: release", day: 1, files: crate("core", "0.3.0").merging(crate("cli", "0.5.0")) { a, _ in a })
        try repo.git("tag", "core-v0.3.0")
        try repo.git("tag", "cli-v0.5.0")
        for (index, version) in ["0.3.1", "0.3.2", "0.3.3"].enumerated() {
            try Self.commit(repo, "feat: option \(index)", day: 2 + 2 * index, files: ["crates/core/src/o\(index).rs": "\n"])
            try Self.commit(repo, "chore: release", day: 3 + 2 * index, files: crate("core", version))
            try repo.git("tag", "core-v\(version)")
        }
        try Self.commit(repo, "feat: one more option", day: 10, files: ["crates/core/src/more.rs": "\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[workspace]") && config.contains("zero-major = \"cargo\""), "\(config)")
        let (plan, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        #expect(members.first { $0.path == "crates/core" }?.next == "0.3.4", "\(plan.stdout)")
    }

    /// release-plz's own workspace: `cargo_utils`, `git_cmd` and `next_version` come first in
    /// folder order, with 0.x releases that show no rule, and `release_plz` (223 releases) last.
    /// `init` reads the members with the most 0.x releases first, so the crate that releases most
    /// decides Cargo's 0.x rule, not the first three folders.
    @Test func initReadsCargosZeroMajorRuleFromTheMembersThatReleaseMost() throws {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n")
        let quiet = ["cargo_utils", "git_cmd", "next_version"]
        func crates(_ versions: [String: String]) -> [String: String] {
            var files: [String: String] = [:]
            for (name, version) in versions {
                files["crates/\(name)/Cargo.toml"] = "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n"
            }
            return files
        }
        var day = 1
        try Self.commit(
            repo, "chore: release", day: day,
            files: crates(Dictionary(uniqueKeysWithValues: (quiet + ["release_plz"]).map { ($0, "0.1.0") })))
        for name in quiet + ["release_plz"] { try repo.git("tag", "\(name)-v0.1.0") }
        // The three first folders: four 0.x releases of fixes each, no feat (no rule shown).
        for patch in 1...3 {
            day += 1
            try Self.commit(
                repo, "fix: a bug \(patch)", day: day,
                files: Dictionary(uniqueKeysWithValues: quiet.map { ("crates/\($0)/src/f\(patch).rs", "\n") }))
            day += 1
            try Self.commit(
                repo, "chore: release", day: day,
                files: crates(Dictionary(uniqueKeysWithValues: quiet.map { ($0, "0.1.\(patch)") })))
            for name in quiet { try repo.git("tag", "\(name)-v0.1.\(patch)") }
        }
        // The last folder: five 0.x releases, each of a feat released as a patch.
        for patch in 1...4 {
            day += 1
            try Self.commit(repo, "feat: option \(patch)", day: day, files: ["crates/release_plz/src/o\(patch).rs": "\n"])
            day += 1
            try Self.commit(repo, "chore: release", day: day, files: crates(["release_plz": "0.1.\(patch)"]))
            try repo.git("tag", "release_plz-v0.1.\(patch)")
        }
        day += 1
        try Self.commit(repo, "feat: one more option", day: day, files: ["crates/release_plz/src/more.rs": "\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("zero-major = \"cargo\"   # crates/release_plz:"), "\(config)")
        let (plan, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        #expect(members.first { $0.path == "crates/release_plz" }?.next == "0.1.5", "\(plan.stdout)")
    }

    /// biome: a Cargo workspace of 105 crates. `init` asks each member's folder what it would write
    /// there, and each asked for the whole workspace again: every Cargo.toml was parsed once per
    /// member, several times over (705 s of wall time on biome's HEAD). It reads each manifest about
    /// once now: counted in bytes read (`/proc/PID/io`), not in seconds.
    @Test func initReadsACargoWorkspacesManifestsOnceNotOncePerMember() throws {
        let (repo, manifestBytes) = try Self.paddedCargoWorkspace()

        let (initialised, bytesRead) = try runCountingReads(
            relctlBinary.path, ["init", "--quiet"], in: repo.url, environment: ["NO_COLOR": "1"])
        #expect(initialised.status == 0, "\(initialised)")
        #expect(try repo.directory.read("relctl.toml").contains("members = [\"crates/*\"]"))
        // Once per member would be 30 times the manifests (it was more than 100 times).
        #expect(
            bytesRead < 10 * manifestBytes,
            "init read \(bytesRead) bytes for \(manifestBytes) bytes of manifests: it reads them once per member")
    }

    /// vite and sveltejs/kit: pnpm-workspace.yaml lists `playground/**` and
    /// `packages/**/__tests__/**` beside `packages/*`; the test apps there share names (several
    /// `nested`, some not private) and kit's have names without the scope. init wrote every glob,
    /// and its own `[workspace.tag-formats]` repeated a key: `plan` refused the file (duplicate
    /// names, exit 2; a TOML error on kit). The globs holding no released package, beside one that
    /// holds released ones, are left out (named in a comment), with their tag formats.
    @Test func initLeavesOutWorkspaceGlobsThatHoldNoReleasedPackage() throws {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String, _ extra: String = "") -> String {
            #"{"name": "\#(name)", "version": "\#(version)"\#(extra)}"#
        }
        try Self.commit(
            repo, "release", day: 1,
            files: [
                "package.json": #"{"name": "vite-monorepo", "private": true}"#,
                "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n  - 'playground/**'\n  - 'packages/**/__tests__/**'\n",
                "packages/vite/package.json": package("vite", "8.0.1"),
                "packages/plugin-legacy/package.json": package("@vitejs/plugin-legacy", "8.0.1"),
                "packages/vite/__tests__/fixtures/a/nested/package.json": package("nested", "0.0.0"),
                "packages/vite/__tests__/fixtures/b/nested/package.json": package("nested", "0.0.0"),
                "playground/hmr/package.json": package("test-hmr", "0.0.0", #", "private": true"#),
                "playground/module-graph/package.json": package("test-hmr", "0.0.0", #", "private": true"#),
            ])
        try repo.git("tag", "vite@8.0.1")
        try repo.git("tag", "plugin-legacy@8.0.1")
        try Self.commit(repo, "fix(legacy): keep the order", day: 2, files: ["packages/plugin-legacy/index.js": "a\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try repo.directory.read("relctl.toml")
        #expect(written.contains(#"members = ["packages/*"]"#), "\(written)")
        #expect(written.contains(#"#   "playground/**""#) && written.contains(#"#   "packages/**/__tests__/**""#), "\(written)")
        let (planned, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(planned.status == 0, "\(planned)")
        #expect(members.map(\.path) == ["packages/plugin-legacy", "packages/vite"], "\(members)")
        #expect(members.first { $0.path == "packages/plugin-legacy" }?.next == "8.0.2", "\(members)")
        // The contract: what init writes passes check without warnings about itself (a
        // workspace root has no [[version]] of its own: "no [[version]] entries" was one).
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0, "\(checked)")
        #expect(!checked.stderr.contains("warning"), "\(checked.stderr)")
    }

    /// pnpm at its head: the Rust crate `pnpr/crates/pnpr` and its private npm wrapper
    /// `@pnpm/pnpr` in `pnpr/npm/pnpr` are both the member `pnpr`: init listed both and `plan`
    /// refused the file (exit 2, their tags would collide). The private namesake of a published
    /// member is not listed now; a comment names it.
    @Test func initDoesNotListAPrivateNamesakeOfAPublishedMember() throws {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String, _ extra: String = "") -> String {
            #"{"name": "\#(name)", "version": "\#(version)"\#(extra)}"#
        }
        try Self.commit(
            repo, "release", day: 1,
            files: [
                "package.json": #"{"name": "monorepo", "private": true}"#,
                "pnpm-workspace.yaml": "packages:\n  - 'packages/*'\n",
                "packages/core/package.json": package("@acme/core", "1.0.0"),
                "packages/cli/package.json": package("@acme/cli", "2.0.0"),
                "packages/core-npm/package.json": package("@acme-npm/core", "1.0.0", #", "private": true"#),
            ])
        try repo.git("tag", "@acme/core@1.0.0")
        try repo.git("tag", "@acme/cli@2.0.0")
        try Self.commit(repo, "fix(core): an edge", day: 2, files: ["packages/core/index.js": "a\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try repo.directory.read("relctl.toml")
        #expect(written.contains(#"members = ["packages/cli", "packages/core"]"#), "\(written)")
        #expect(written.contains(#"#   "packages/core-npm" (private, named "core" like "packages/core""#), "\(written)")
        #expect(!written.contains("@acme-npm"), "\(written)")
        let (planned, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(planned.status == 0, "\(planned)")
        #expect(members.first { $0.path == "packages/core" }?.next == "1.0.1", "\(members)")
    }

    /// pre-commit keeps its version in setuptools' declarative setup.cfg (`[metadata] version =
    /// 4.6.2`, no pyproject.toml): init wrote no [[version]] and `check` said "no [[version]]
    /// entries: tags are checked for syntax only". init writes a regex entry on that line now; a
    /// version taken from the code (`attr:`) is not one.
    @Test func initReadsTheVersionOfADeclarativeSetupCfg() throws {
        let repo = try GitRepository()
        let config = "[metadata]\nname = pre_commit\nversion = 4.6.2\n\n[options]\npackages = find:\n\n[bdist_wheel]\nuniversal = True\n"
        try Self.commit(repo, "v4.6.2", day: 1, files: ["setup.cfg": config, "setup.py": "from setuptools import setup\nsetup()\n"])
        try repo.git("tag", "v4.6.2")
        try Self.commit(repo, "Fix the hook runner on empty input", day: 2, files: ["pre_commit/main.py": "a\n"])

        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("setup.cfg") == config.replacingOccurrences(of: "4.6.2", with: "4.6.3"))

        let other = try GitRepository()
        try other.commit("start", files: ["setup.cfg": "[metadata]\nname = x\nversion = attr: x.__version__\n"])
        #expect(try relctl(["init", "--quiet"], in: other.url).status == 0)
        #expect(!(try other.directory.read("relctl.toml")).contains("path = \"setup.cfg\""))
    }

    /// aiohttp and sqlalchemy: `dynamic = ["version"]` read by setuptools from the package's
    /// `__version__` (`[tool.setuptools.dynamic] version = {attr = …}`, sqlalchemy's packages in
    /// `lib/`). `init` said the version came from the git tag and wrote no [[version]]: `plan`
    /// proposed 4.0.0 where the file holds 4.0.0a2.dev0 (aiohttp) and 0.1.0 for sqlalchemy. A
    /// setuptools-scm build still reads the tag.
    @Test func initReadsASetuptoolsDynamicVersionFromThePackage() throws {
        let repo = try GitRepository()
        let pyproject = """
            [build-system]
            requires = ["setuptools >= 67.0"]
            build-backend = "setuptools.build_meta"

            [project]
            name = "SQLAlchemy"
            dynamic = ["version"]

            [tool.setuptools.packages.find]
            where = ["lib"]

            [tool.setuptools.dynamic]
            version = {attr = "sqlalchemy.__version__"}

            """
        try Self.commit(
            repo, "Version 2.0.40", day: 1,
            files: ["pyproject.toml": pyproject, "lib/sqlalchemy/__init__.py": "__version__ = \"2.0.40\"\n"])
        try repo.git("tag", "v2.0.40")
        try Self.commit(repo, "fix: a pool leak", day: 2, files: ["lib/sqlalchemy/pool.py": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"lib/sqlalchemy/__init__.py\"\nkind = \"python\""), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0 && bumped.stdout.contains("2.0.41"), "\(bumped)")
        #expect(try repo.directory.read("lib/sqlalchemy/__init__.py") == "__version__ = \"2.0.41\"\n")

        let scm = try GitRepository()
        try scm.commit(
            "start",
            files: [
                "pyproject.toml":
                    "[build-system]\nrequires = [\"setuptools>=64\", \"setuptools-scm>=8\"]\n\n[project]\nname = \"x\"\ndynamic = [\"version\"]\n",
                "x/__init__.py": "__version__ = \"0.0.0\"\n",
            ])
        #expect(try relctl(["init", "--quiet"], in: scm.url).status == 0)
        let tagged = try scm.directory.read("relctl.toml")
        #expect(!tagged.contains("[[version]]") && tagged.contains("comes from the git tag"), "\(tagged)")
    }

    /// vue and zod release their npm workspace in lockstep (one `v3.5.41` series). `init` listed
    /// only the private root's package.json (vue: a release left its eleven packages at the old
    /// version) or nothing at all (zod's root has no version: `check` warned about what init
    /// wrote). Every published package holding the line's version is listed; a private one or a
    /// package on its own version is not.
    @Test func initListsTheLockstepPackagesOfAnNpmWorkspace() throws {
        func manifest(_ name: String, _ version: String?, private isPrivate: Bool = false) -> String {
            "{\n  \"name\": \"\(name)\",\n" + (version.map { "  \"version\": \"\($0)\",\n" } ?? "")
                + (isPrivate ? "  \"private\": true,\n" : "") + "  \"workspaces\": [\"packages/*\"]\n}\n"
        }
        for rootVersion in ["3.5.41", nil] {
            let repo = try GitRepository()
            try Self.commit(
                repo, "release: v3.5.41", day: 1,
                files: [
                    "package.json": manifest("core", rootVersion, private: true),
                    "packages/vue/package.json": manifest("vue", "3.5.41"),
                    "packages/shared/package.json": manifest("@vue/shared", "3.5.41"),
                    "packages/playground/package.json": manifest("playground", "3.5.41", private: true),
                    "packages/tooling/package.json": manifest("@vue/tooling", "0.4.0"),
                ])
            try repo.git("tag", "v3.5.41")
            try Self.commit(repo, "fix: a hydration mismatch", day: 2, files: ["packages/vue/index.js": "a\n"])
            let initialised = try relctl(["init", "--quiet"], in: repo.url)
            #expect(initialised.status == 0, "\(initialised)")
            let config = try repo.directory.read("relctl.toml")
            #expect(config.contains("path = \"packages/vue/package.json\""), "\(config)")
            #expect(config.contains("path = \"packages/shared/package.json\""), "\(config)")
            #expect(!config.contains("playground/package.json") && !config.contains("tooling/package.json"), "\(config)")
            #expect(config.contains("path = \"package.json\"") == (rootVersion != nil), "\(config)")
            let checked = try relctl(["check"], in: repo.url)
            #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
            let bumped = try relctl(["bump", "--write"], in: repo.url)
            #expect(bumped.status == 0, "\(bumped)")
            #expect(try repo.directory.read("packages/vue/package.json") == manifest("vue", "3.5.42"))
            #expect(try repo.directory.read("packages/shared/package.json") == manifest("@vue/shared", "3.5.42"))
            #expect(try repo.directory.read("packages/tooling/package.json") == manifest("@vue/tooling", "0.4.0"))
        }
    }

    /// tauri: the example app `examples/api` is named `api` like the published `crates/api`
    /// (whose old `api-v…` tags made the example look released), and `examples/file-associations`
    /// holds 1.0.0, which the old bare `v1.0.0` series released. `init` listed both `api`s (check:
    /// exit 2, two members named `api`) and gave the example the bare series; and every `plan`
    /// warned about the moving major tag `tauri-v2` as a release in another spelling.
    @Test func initNeverListsAnExampleBesideThePublishedPackageOfItsName() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String { "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n" }
        try Self.commit(
            repo, "chore: release", day: 1,
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\", \"examples/*\"]\n",
                "crates/tauri/Cargo.toml": crate("tauri", "2.0.1"),
                "crates/api/Cargo.toml": crate("api", "2.0.0"),
                "examples/api/Cargo.toml": crate("api", "0.1.0"),
                "examples/file-associations/Cargo.toml": crate("file-associations", "1.0.0"),
            ])
        for tag in ["v1.0.0", "tauri-v2.0.1", "tauri-v2", "api-v2.0.0"] { try repo.git("tag", tag) }
        try Self.commit(repo, "fix: a window leak", day: 2, files: ["crates/tauri/src/lib.rs": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("\"examples/api\" (an example or test, named \"api\" like \"crates/api\""), "\(config)")
        #expect(!config.contains("file-associations = \"v{version}\""), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0, "\(checked)")
        let (planned, members) = try MemberPlanDocument.run(in: repo.url)
        #expect(planned.status == 0 && !planned.stderr.contains("tauri-v2`"), "\(planned)")
        let tauri = try #require(members.first { $0.name == "tauri" }, "\(planned)")
        #expect(tauri.next == "2.0.2" && tauri.tag == "tauri-v2.0.2", "\(tauri)")
    }

    /// tauri's crate folder: Cargo.toml holds 2.0.1 before its tag, and `@tauri-apps/api-v2.0.1`
    /// (another package, released first) names that version. `init` took the api's series
    /// (`plan`: tag `@tauri-apps/api-v2.0.2` for the crate); the crate has tags of its own name.
    @Test func initKeepsTheProjectsOwnSeriesOverAnotherPackageNamingItsVersion() throws {
        let repo = try GitRepository()
        func crate(_ version: String) -> String { "[package]\nname = \"tauri\"\nversion = \"\(version)\"\n" }
        try Self.commit(
            repo, "chore: v2", day: 1,
            files: ["crates/tauri/Cargo.toml": crate("2.0.0"), "packages/api/package.json": "{\"name\": \"@tauri-apps/api\", \"version\": \"2.0.0\"}\n"])
        try repo.git("tag", "tauri-v2.0.0")
        try repo.git("tag", "@tauri-apps/api-v2.0.0")
        try Self.commit(
            repo, "fix(api): a path", day: 2,
            files: ["packages/api/package.json": "{\"name\": \"@tauri-apps/api\", \"version\": \"2.0.1\"}\n"])
        try repo.git("tag", "@tauri-apps/api-v2.0.1")
        try Self.commit(repo, "fix(core): a leak; apply version updates", day: 3, files: ["crates/tauri/Cargo.toml": crate("2.0.1")])
        let folder = repo.url.appendingPathComponent("crates/tauri")
        let initialised = try relctl(["init", "--quiet"], in: folder)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("crates/tauri/relctl.toml")
        #expect(config.contains("tag-format = \"{project}-v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: folder)
        #expect(try Self.field(bump.stdout, "tag") as? String == "tauri-v2.0.1", "\(bump)")
    }

    /// tauri's packages/cli: a napi crate's Cargo.toml holds the placeholder 0.0.0 beside
    /// package.json's 2.0.4 (pnpm's registry-mock too). `init` listed both and `check` warned that
    /// the manifests disagree, about init's own file; the placeholder is left out and said.
    @Test func initLeavesOutAPlaceholderVersionBesideARealOne() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "chore: release", day: 1,
            files: [
                "Cargo.toml": "[package]\nname = \"tauri-cli-node\"\nversion = \"0.0.0\"\n",
                "package.json": "{\n  \"name\": \"@tauri-apps/cli\",\n  \"version\": \"2.0.4\"\n}\n",
            ])
        try repo.git("tag", "v2.0.4")
        try Self.commit(repo, "fix: a flag", day: 2, files: ["src/lib.rs": "a\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"package.json\"") && !config.contains("path = \"Cargo.toml\""), "\(config)")
        #expect(config.contains("Cargo.toml holds 0.0.0, a placeholder"), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
    }

    /// tauri records each change in covector's `.changes/*.md` (`"tauri": patch:feat`) and ships
    /// its `feat:` commits as patches (2.0.2 to 2.0.5): relctl read only the commits and proposed
    /// 2.1.0. `init` writes `fragments = "covector"`, and the change files decide the level, as
    /// `covector version` does; a `minor:feat` file gives the minor.
    @Test func covectorChangeFilesGiveTheLevel() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "apply version updates", day: 1,
            files: [
                "Cargo.toml": "[package]\nname = \"tauri\"\nversion = \"2.0.1\"\n",
                ".changes/config.json": "{\n  \"packages\": {\"tauri\": {\"path\": \".\", \"manager\": \"rust\"}}\n}\n",
                ".changes/readme.md": "# Changes\n",
            ])
        try repo.git("tag", "tauri-v2.0.1")
        try Self.commit(
            repo, "feat(core): expose the window's scale factor", day: 2,
            files: ["src/window.rs": "a\n", ".changes/scale-factor.md": "---\n\"tauri\": patch:feat\n---\n\nExpose the scale factor.\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("fragments = \"covector\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "2.0.2", "\(bump)")
        #expect(bump.stderr.contains(".changes/scale-factor.md calls for a patch; the change files decide"), "\(bump)")
        try Self.commit(
            repo, "feat: tray menus", day: 3,
            files: ["src/tray.rs": "t\n", ".changes/tray.md": "---\n'tauri': 'minor:feat'\n\"tauri-utils\": major:breaking\n---\n\nTray menus.\n"])
        let minor = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(minor.stdout, "next") as? String == "2.1.0", "\(minor)")
    }

    /// biome's `plan` (112 members) spent 76% of its 17.6 s re-reading the Cargo workspace once
    /// per member, as `init` did before: each member asks what `init` would write for its folder.
    @Test func planReadsACargoWorkspacesManifestsOnceNotOncePerMember() throws {
        let (repo, manifestBytes) = try Self.paddedCargoWorkspace()
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")

        let (planned, bytesRead) = try runCountingReads(
            relctlBinary.path, ["plan", "--json"], in: repo.url, environment: ["NO_COLOR": "1"])
        #expect(planned.status == 0, "\(planned)")
        #expect(try Self.planNext(planned.stdout, "crates/crate_07") == "0.1.1", "\(planned)")
        #expect(
            bytesRead < 10 * manifestBytes,
            "plan read \(bytesRead) bytes for \(manifestBytes) bytes of manifests: it reads them once per member")
    }

    /// biome's crates/biome_cli/Cargo.toml spreads an inline table over three lines (TOML 1.1,
    /// which Cargo reads): `plan` refused the whole workspace, exit 2 naming the file. It reads it
    /// now, and `bump --write` changes the version line only.
    @Test func aCargoManifestInTOML11IsReadAndWrittenBack() throws {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n\n[workspace.dependencies]\ntokio = \"1\"\n")
        try repo.directory.write("crates/core/Cargo.toml", "[package]\nname = \"core\"\nversion = \"0.3.0\"\n")
        try repo.directory.write("crates/core/src/lib.rs", "\n")
        let cli = """
            [package]
            name = "cli"
            version = "1.4.0"

            [dependencies]
            core  = {
              path    = "../core", # the member: its requirement follows its releases
              version = "0.3.0",
            }
            tokio = {
              workspace = true,
              features  = ["io-std", "macros"], # trailing comma and comment: TOML 1.1
            }

            """
        try repo.directory.write("crates/cli/Cargo.toml", cli)
        try repo.directory.write("crates/cli/src/main.rs", "fn main() {}\n")
        try Self.commit(repo, "chore: release", day: 1)
        try repo.git("tag", "core-v0.3.0")
        try repo.git("tag", "cli-v1.4.0")
        try Self.commit(repo, "feat: a flag", day: 2, files: ["crates/cli/src/main.rs": "fn main() { }\n"])
        try Self.commit(repo, "fix: an edge", day: 3, files: ["crates/core/src/lib.rs": "// fixed\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")

        let planned = try relctl(["plan", "--json"], in: repo.url)
        #expect(planned.status == 0, "\(planned)")
        #expect(try Self.planNext(planned.stdout, "crates/cli") == "1.5.0", "\(planned)")
        #expect(try Self.planNext(planned.stdout, "crates/core") == "0.3.1", "\(planned)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        // The version line and the requirement inside the spread table change; nothing else.
        let expected = cli.replacingOccurrences(of: "version = \"1.4.0\"", with: "version = \"1.5.0\"")
            .replacingOccurrences(of: "version = \"0.3.0\",", with: "version = \"0.3.1\",")
        #expect(try repo.directory.read("crates/cli/Cargo.toml") == expected)
    }

    /// pydantic-core: its folder inside pydantic releases as `core-v2.45.0`, and its Cargo.toml
    /// already holds the coming 2.46.0 before the tag. No tag names 2.46.0, so `init` took the
    /// repository's `v` series (`v2.13.0`: current 2.13.0, tag `v2.46.0`). The manifest's version
    /// continues `core-v2.45.0` (one minor above it): that is the series. Two series a step below
    /// decide nothing.
    @Test func initTakesTheSeriesTheManifestsComingVersionContinues() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            "[project]\nname = \"pydantic\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\npath = \"pydantic/version.py\"\n")
        try repo.directory.write("pydantic/version.py", "VERSION = '2.13.0'\n")
        try repo.directory.write("pydantic-core/Cargo.toml", "[package]\nname = \"pydantic-core\"\nversion = \"2.45.0\"\n")
        try repo.directory.write("pydantic-core/pyproject.toml", "[project]\nname = \"pydantic_core\"\ndynamic = [\"version\"]\n")
        try repo.directory.write("pydantic-core/src/lib.rs", "\n")
        try Self.commit(repo, "Prepare release v2.13.0", day: 1)
        try repo.git("tag", "v2.13.0")
        try repo.git("tag", "core-v2.45.0")
        try Self.commit(repo, "Fix a validator", day: 2, files: ["pydantic-core/src/lib.rs": "// fixed\n"])
        try Self.commit(
            repo, "Bump pydantic-core to 2.46.0", day: 3,
            files: ["pydantic-core/Cargo.toml": "[package]\nname = \"pydantic-core\"\nversion = \"2.46.0\"\n"])
        let core = repo.url.appendingPathComponent("pydantic-core")

        let initialised = try relctl(["init", "--quiet"], in: core)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try String(contentsOf: core.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("tag-format = \"core-v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: core)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "previous") as? String == "core-v2.45.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "core-v2.46.0", "\(bump)")

        // A second series one step below 2.46.0 leaves the choice to the tags, as before.
        try FileManager.default.removeItem(at: core.appendingPathComponent("relctl.toml"))
        try repo.git("tag", "other-v2.45.3")
        #expect(try relctl(["init", "--quiet"], in: core).status == 0)
        let ambiguous = try String(contentsOf: core.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(!ambiguous.contains("tag-format = \"core-v{version}\""), "\(ambiguous)")
    }

    /// hyperfine, just: a project that releases a minor each time, with one patch among the last
    /// ten releases (1.7.1 after 1.7.0). The last six are not all minors, yet a maintainer sees
    /// the cadence: `init` writes `cadence = "minor"`, and an untyped change gives 1.10.0. With the
    /// newest release a patch, no cadence is written.
    @Test func initReadsAMinorCadenceWithOnePatchAmongTenReleases() throws {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[package]\nname = \"tool\"\nversion = \"1.0.0\"\n")
        var day = 1
        for version in ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0", "1.7.0", "1.7.1", "1.8.0", "1.9.0"] {
            try Self.commit(repo, "Release \(version)", day: day, files: ["Cargo.toml": "[package]\nname = \"tool\"\nversion = \"\(version)\"\n"])
            try repo.git("tag", "v\(version)")
            day += 1
        }
        try Self.commit(repo, "Add a --shell option", day: day, files: ["src/main.rs": "fn main() {}\n"])
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("cadence = \"minor\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "1.10.0", "\(bump)")

        // The newest release a patch: nothing says the next is a minor.
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try repo.git("tag", "v1.9.1")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(!(try repo.directory.read("relctl.toml")).contains("cadence"))
    }

    /// biome: `changeset version` applies the changesets whatever the commits say, so a `feat:`
    /// whose changeset says `"@biomejs/biome": patch` is released as a patch. `init`, run inside
    /// the member folder `packages/@biomejs/biome` of a repository whose top keeps
    /// `.changeset/config.json` (and is a Cargo workspace), writes `fragments = "changesets"`, and
    /// bump reads the top's changesets: they give the level, lower or higher than the commits'.
    @Test func changesetsDecideTheLevelFromAMemberFolder() throws {
        let repo = try GitRepository()
        let member = "packages/@biomejs/biome"
        try Self.commit(
            repo, "chore: release", day: 1,
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n", ".changeset/config.json": "{}\n",
                "\(member)/package.json": "{\n  \"name\": \"@biomejs/biome\",\n  \"version\": \"2.0.0\"\n}\n",
            ])
        try repo.git("tag", "-a", "@biomejs/biome@2.0.0", "-m", "@biomejs/biome@2.0.0")
        try Self.commit(
            repo, "feat: add ignore primitives", day: 2,
            files: [
                "\(member)/a.js": "a\n",
                ".changeset/add-ignore-primitives.md": "---\n\"@biomejs/biome\": patch\n---\n\nIgnore primitives.\n",
            ])
        let folder = repo.url.appendingPathComponent(member)
        let initialised = try relctl(["init", "--quiet"], in: folder)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("\(member)/relctl.toml")
        #expect(config.contains("fragments = \"changesets\""), "\(config)")
        let bump = try relctl(["bump"], in: folder)
        #expect(bump.status == 0, "\(bump)")
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.0.1", "the changeset's patch: \(bump)")
        #expect(bump.stderr.contains("the changesets decide"), "says why: \(bump)")

        // A changeset saying minor raises fixes to a minor, as before.
        try repo.git("reset", "-q", "--hard", "HEAD~1")
        try Self.commit(
            repo, "fix: a crash", day: 3,
            files: [
                "\(member)/b.js": "b\n",
                ".changeset/new-rule.md": "---\n\"@biomejs/biome\": minor\n---\n\nA new rule.\n",
            ])
        try repo.directory.write("\(member)/relctl.toml", config)
        let minor = try relctl(["bump"], in: folder)
        #expect(minor.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.1.0", "\(minor)")

        // A package no changeset names keeps its commits' level.
        try Self.commit(
            repo, "fix: more", day: 4,
            files: [
                "\(member)/c.js": "c\n",
                ".changeset/new-rule.md": "---\n\"@biomejs/js-api\": major\n---\n\nAnother package.\n",
            ])
        let commits = try relctl(["bump"], in: folder)
        #expect(commits.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.0.1", "\(commits)")
    }
}
