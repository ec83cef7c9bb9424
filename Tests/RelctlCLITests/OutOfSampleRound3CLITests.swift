import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the third out-of-sample round of the back-test found (session 61: rustls, bytes,
/// serde_json, crossbeam, tonic, rand, gin, testify, logrus, echo, the OpenTelemetry collector,
/// caddy, setuptools, virtualenv, fastapi, jsonschema, hypothesis, pdm and more), each on a
/// generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound3CLITests {
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    /// setuptools' `maint/75.3`: main released 75.4.0 … 75.9.1 and then went on to 84.0.0. init
    /// wrote `range = "75.x"`, so bump counted from 75.9.1, which the branch does not contain, and
    /// proposed 75.9.2; the name gives the minor line and the branch releases 75.3.1.
    @Test func aMaintenanceBranchNamedForAMinorWhoseMajorWentOnIsThatMinorsLine() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"setuptools\"\nversion = \"\(version)\"\n"]
        }
        var day = 1
        for version in ["75.3.0", "75.4.0", "75.9.1", "84.0.0"] {
            try Self.commit(repo, "Bump version: \(version)", day: day, files: manifest(version))
            try repo.git("tag", "v" + version)
            day += 1
        }
        try repo.git("checkout", "-q", "-b", "maint/75.3", "v75.3.0")
        try Self.commit(repo, "fix: a security backport", day: day, files: ["setuptools/a.py": "a\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"maint/75.3\"\nrange = \"75.3.x\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "75.3.1", "\(bump)")
    }

    /// rustls tags `v/0.23.33`, its post-quantum crate `rustls-post-quantum-v/0.2.1`: init read
    /// none of them ("no version tag yet") and plan proposed `v0.1.0`-like first releases.
    @Test func initReadsTagsWithASlashAfterTheV() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["Cargo.toml": "[package]\nname = \"rustls\"\nversion = \"\(version)\"\nedition = \"2021\"\n"]
        }
        try Self.commit(repo, "Prepare 0.23.32", day: 1, files: manifest("0.23.32"))
        try repo.git("tag", "v/0.23.32")
        try Self.commit(repo, "Prepare 0.23.33", day: 2, files: manifest("0.23.33"))
        try repo.git("tag", "v/0.23.33")
        // The manifest moved on to a development version: no tag names what it holds.
        try Self.commit(repo, "fix: a handshake bug", day: 3, files: manifest("0.24.0-dev.1"))
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v/{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "current") as? String == "0.23.33", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "v/0.24.0", "\(bump)")
    }

    /// rand's workspace at the commit before 0.8.5: the root crate holds 0.8.5, the version about
    /// to be tagged after the bare `0.8.4`, and rand_core holds 0.6.4, a version rand tagged in
    /// 2019. init gave the bare series to rand_core; it is the root crate's, the one preparing the
    /// series' next version.
    @Test func theBareSeriesGoesToTheCratePreparingItsNextVersion() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2018\"\n"
        }
        let workspace = "[workspace]\nmembers = [\"rand_core\", \"rand_chacha\"]\n\n"
        try Self.commit(
            repo, "Release 0.6.4", day: 1,
            files: [
                "Cargo.toml": workspace + crate("rand", "0.6.4"), "rand_core/Cargo.toml": crate("rand_core", "0.4.0"),
                "rand_chacha/Cargo.toml": crate("rand_chacha", "0.3.1"),
            ])
        try repo.git("tag", "0.6.4")
        try repo.git("tag", "rand_chacha-0.3.1")
        try Self.commit(repo, "Release 0.8.4", day: 2, files: ["Cargo.toml": workspace + crate("rand", "0.8.4")])
        try repo.git("tag", "0.8.4")
        try Self.commit(repo, "rand_core 0.6.3", day: 3, files: ["rand_core/Cargo.toml": crate("rand_core", "0.6.3")])
        try repo.git("tag", "rand_core-0.6.3")
        try Self.commit(repo, "rand_core 0.6.4", day: 4, files: ["rand_core/Cargo.toml": crate("rand_core", "0.6.4")])
        try Self.commit(repo, "Prepare 0.8.5", day: 5, files: ["Cargo.toml": workspace + crate("rand", "0.8.5")])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("rand = \"{version}\""), "\(config)")
        #expect(!config.contains("rand_core = \"{version}\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        let members = try Self.field(plan.stdout, "members") as? [[String: Any]] ?? []
        let rand = members.first { $0["name"] as? String == "rand" }
        #expect(rand?["tag"] as? String == "0.8.5", "\(plan)")
    }

    /// crossbeam's `benchmarks` crate (publish = false, 0.0.0 beside an old `v0.0.0` tag) and
    /// tonic's `tonic-protobuf` (publish = false at 0.14.0, the old lockstep tag `v0.14.0`) were
    /// given the repository's bare series and planned as releases; tonic's `codegen`, a crate
    /// without a version (Cargo: 0.0.0, never published), was planned as a first release.
    @Test func anUnpublishedCrateNeverTakesTheBareSeriesOrAFirstRelease() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String?, publish: Bool = true) -> String {
            "[package]\nname = \"\(name)\"\n" + (version.map { "version = \"\($0)\"\n" } ?? "")
                + (publish ? "" : "publish = false\n")
        }
        try Self.commit(
            repo, "Release 0.14.0", day: 1,
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"tonic\", \"tonic-protobuf\", \"codegen\", \"benchmarks\"]\n",
                "tonic/Cargo.toml": crate("tonic", "0.14.0"), "tonic-protobuf/Cargo.toml": crate("tonic-protobuf", "0.14.0"),
                "codegen/Cargo.toml": crate("codegen", nil), "benchmarks/Cargo.toml": crate("benchmarks", "0.0.0", publish: false),
            ])
        try repo.git("tag", "v0.0.0")
        try repo.git("tag", "v0.14.0")
        try Self.commit(repo, "Release tonic 0.14.1", day: 2, files: ["tonic/Cargo.toml": crate("tonic", "0.14.1")])
        try repo.git("tag", "v0.14.1")
        try Self.commit(repo, "Release tonic 0.14.2", day: 2, files: ["tonic/Cargo.toml": crate("tonic", "0.14.2")])
        try repo.git("tag", "tonic-v0.14.2")
        try Self.commit(
            repo, "Mark tonic-protobuf unpublished", day: 3,
            files: ["tonic-protobuf/Cargo.toml": crate("tonic-protobuf", "0.14.0", publish: false)])
        try Self.commit(repo, "fix: everywhere", day: 4, files: ["codegen/src/main.rs": "\n", "benchmarks/src/main.rs": "\n", "tonic/src/lib.rs": "\n", "tonic-protobuf/src/lib.rs": "\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("= \"v{version}\""), "no member takes the bare series: \(config)")
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let members = try Self.field(plan.stdout, "members") as? [[String: Any]] ?? []
        let planned = members.filter { $0["next"] is String }.compactMap { $0["name"] as? String }
        #expect(planned == ["tonic"], "\(plan)")
    }

    /// babel: one lightweight tag `@babel/core@7.23.2` of 2023, on a commit pushed by mistake, then
    /// hundreds of `v7.x`/`v8.x` releases of every package together. init read a workspace of
    /// separately tagged members (156 in babel, 154 never released) and plan proposed `v8.0.4`'s
    /// packages as first releases. Member tags the history moved on from do not decide.
    @Test func oneOldStrayMemberTagDoesNotMakeALockstepRepositoryAWorkspace() throws {
        let repo = try GitRepository()
        func packages(_ version: String) -> [String: String] {
            [
                "package.json": "{\"name\": \"babel\", \"private\": true, \"version\": \"\(version)\", \"workspaces\": [\"packages/*\"]}\n",
                "packages/babel-core/package.json": "{\"name\": \"@babel/core\", \"version\": \"\(version)\"}\n",
                "packages/babel-parser/package.json": "{\"name\": \"@babel/parser\", \"version\": \"\(version)\"}\n",
            ]
        }
        try Self.commit(repo, "v7.23.2", day: 1, files: packages("7.23.2"))
        try repo.git("tag", "@babel/core@7.23.2")
        try repo.git("tag", "v7.23.2")
        for patch in 3...14 {
            try Self.commit(repo, "v7.23.\(patch)", day: patch, files: packages("7.23.\(patch)"))
            try repo.git("tag", "v7.23.\(patch)")
        }
        try Self.commit(repo, "fix(parser): a crash", day: 20, files: ["packages/babel-parser/src/a.js": "\n"])
        let made = try relctl(["init", "--quiet"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        #expect(!config.contains("\n[workspace]"), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "7.23.15", "\(bump)")
    }

    /// date-fns' v2 branch: package.json's version is a sentence its publishing replaces, and
    /// init listed it, so `check` refused init's own file (exit 2). With a real version, its
    /// devDependency `@date-fns/date-fns-scripts` (0.0.6) was read as one of date-fns' platform
    /// packages: `validate-tag` refused the release and `bump --write` wrote date-fns' version into
    /// it; an unscoped `date-fns-tz` by another author was caught the same way.
    @Test func aPlaceholderVersionIsNotListedAndAnotherPackagesPinIsNotMoved() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> String {
            """
            {
              "name": "date-fns",
              "version": "\(version)",
              "dependencies": { "date-fns-tz": "1.3.7" },
              "devDependencies": { "@date-fns/date-fns-scripts": "0.0.6" }
            }

            """
        }
        try Self.commit(
            repo, "Release", day: 1,
            files: ["package.json": manifest("DON'T CHANGE; IT'S SET AUTOMATICALLY DURING DEPLOYMENT; ALSO, USE YARN")])
        try repo.git("tag", "v2.30.0")
        try Self.commit(repo, "fix: parse", day: 2, files: ["src/parse.js": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)")
        #expect(!(try repo.directory.read("relctl.toml")).contains("path = \"package.json\""))

        try repo.directory.write("relctl.toml", "[project]\nname = \"date-fns\"\n\n[[version]]\npath = \"package.json\"\n")
        try Self.commit(repo, "chore: a version", day: 3, files: ["package.json": manifest("2.30.0")])
        let valid = try relctl(["validate-tag", "v2.30.0"], in: repo.url)
        #expect(valid.status == 0, "\(valid)")
        let write = try relctl(["bump", "--set", "2.30.1", "--write"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("package.json") == manifest("2.30.1"))
    }

    /// prettier keeps `X.(Y+1).0-dev` in package.json, on main and on its `v3.8.x` branch, and
    /// lowers it to the release's version only in each release commit. relctl took the marker as
    /// the floor: 3.9.0 where the project released 3.8.3 (18 of 20 points), and on `v3.8.x`
    /// (init's `range = "3.8.x"`) plan exited 1, refusing init's own file. A marker that stood above
    /// the previous release binds nothing; on a maintenance line one outside the range neither.
    @Test func aDevelopmentMarkerThatStoodAboveThePreviousReleaseIsNoFloor() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"prettier\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "Release 3.8.0", day: 1, files: manifest("3.8.0"))
        try repo.git("tag", "3.8.0")
        try Self.commit(repo, "Bump to dev", day: 2, files: manifest("3.9.0-dev"))
        try Self.commit(repo, "Fix a crash", day: 3, files: ["src/a.js": "a\n"])
        try Self.commit(repo, "Release 3.8.1", day: 4, files: manifest("3.8.1"))
        try repo.git("tag", "3.8.1")
        try Self.commit(repo, "Bump to dev", day: 5, files: manifest("3.9.0-dev"))
        try Self.commit(repo, "Fix another crash", day: 6, files: ["src/b.js": "b\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "3.8.2", "\(bump)")

        // A marker the previous release was not made under still binds (grpc-go's `-dev`).
        let grpc = try GitRepository()
        try Self.commit(grpc, "Release 1.65.0", day: 1, files: manifest("1.65.0"))
        try grpc.git("tag", "1.65.0")
        try Self.commit(grpc, "Start 1.66.0", day: 2, files: manifest("1.66.0-dev"))
        try Self.commit(grpc, "Fix a leak", day: 3, files: ["src/a.js": "a\n"])
        try grpc.directory.write("relctl.toml", "[project]\nname = \"grpc\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"package.json\"\n")
        let dev = try relctl(["bump", "--json"], in: grpc.url)
        #expect(try Self.field(dev.stdout, "next") as? String == "1.66.0", "\(dev)")

        // A marker released as such (commander's `13.0.0-0`, tagged on a commit after the bump) is
        // still promoted to its final: it is the previous release, not a marker above it.
        let commander = try GitRepository()
        try Self.commit(commander, "12.1.0", day: 1, files: manifest("12.1.0"))
        try commander.git("tag", "12.1.0")
        try Self.commit(commander, "Bump to 13.0.0-0", day: 2, files: manifest("13.0.0-0"))
        try Self.commit(commander, "Add 13.0.0-0 changes to CHANGELOG", day: 3, files: ["CHANGELOG.md": "x\n"])
        try commander.git("tag", "13.0.0-0")
        try Self.commit(commander, "Add save/restore state", day: 4, files: ["lib/s.js": "s\n"])
        try commander.directory.write("relctl.toml", "[project]\nname = \"commander\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"package.json\"\n")
        let promoted = try relctl(["bump", "--json"], in: commander.url)
        #expect(try Self.field(promoted.stdout, "next") as? String == "13.0.0", "\(promoted)")

        // The maintenance branch holding main's marker: its range decides, and plan does not refuse.
        try repo.git("checkout", "-q", "-b", "v3.8.x", "3.8.1")
        try Self.commit(repo, "Keep the marker", day: 7, files: manifest("3.10.0-dev"))
        try Self.commit(repo, "Fix on 3.8", day: 8, files: ["src/c.js": "c\n"])
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"prettier\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"package.json\"\n\n[[branch]]\nname = \"v3.8.x\"\nrange = \"3.8.x\"\n")
        let line = try relctl(["plan", "--json"], in: repo.url)
        #expect(line.status == 0, "\(line)")
        let members = try Self.field(line.stdout, "members") as? [[String: Any]] ?? []
        #expect(members.first?["next"] as? String == "3.8.2", "\(line)")
    }

    /// The OpenTelemetry collector's changelog heads each release `## v1.65.0/v0.159.0`, its
    /// stable modules' version and its 0.x modules'. init read the first, above the latest tag
    /// `v0.159.0`, as the next release: `[versioning] changelog`, and plan proposed 1.65.0 (0 of 10
    /// points). A heading naming the latest release among others is a released section.
    @Test func aChangelogHeadingNamingTheLatestReleaseAmongOthersIsReleased() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module go.opentelemetry.io/collector\n\ngo 1.24\n")
        try Self.commit(
            repo, "Prepare release v1.65.0/v0.159.0", day: 1,
            files: ["CHANGELOG.md": "# Changelog\n\n<!-- next version -->\n\n## v1.65.0/v0.159.0\n\n### 🧰 Bug fixes 🧰\n\n- a fix\n\n## v1.64.0/v0.158.0\n\n- older\n"])
        try repo.git("tag", "v0.159.0")
        try Self.commit(repo, "[chore] fix a test", day: 2, files: ["a.go": "package collector\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("changelog = "), "\(config)")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"collector\"\n\n[versioning]\nchangelog = \"CHANGELOG.md\"\n")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "0.159.1", "\(bump)")
    }

    /// The collector's nested Go modules are tagged with their folder's path, as Go requires
    /// (`cmd/builder/v0.159.0`); init in `cmd/builder` wrote the root's `v{version}` and plan
    /// proposed `v0.160.0`, the root module's tag. (`pdata` was right only because its name is
    /// its folder.)
    @Test func initInANestedGoModuleUsesItsFolderPathTags() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module go.opentelemetry.io/collector\n\ngo 1.24\n")
        try repo.directory.write("cmd/builder/go.mod", "module go.opentelemetry.io/collector/cmd/builder\n\ngo 1.24\n")
        try Self.commit(repo, "Prepare release", day: 1, files: ["cmd/builder/main.go": "package main\n"])
        try repo.git("tag", "v0.159.0")
        try repo.git("tag", "cmd/builder/v0.159.0")
        try Self.commit(repo, "fix(builder): a flag", day: 2, files: ["cmd/builder/flag.go": "package main\n"])
        let builder = repo.url.appendingPathComponent("cmd/builder")
        #expect(try relctl(["init", "--quiet"], in: builder).status == 0)
        let config = try String(contentsOf: builder.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("tag-format = \"cmd/builder/v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: builder)
        #expect(try Self.field(bump.stdout, "tag") as? String == "cmd/builder/v0.159.1", "\(bump)")
    }

    /// echo's `v4` branch bumps `Version` in echo.go with every 4.x release while master is at
    /// 5.3.1: init on `v4` compared the constant with 5.3.1, left it out, and `check` warned about
    /// init's own file; `bump --write` would leave echo.go behind.
    @Test func onAMaintenanceBranchAGoConstantNamingTheLinesLatestReleaseIsListed() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module github.com/labstack/echo/v4\n\ngo 1.22\n")
        func constant(_ version: String) -> [String: String] {
            ["echo.go": "package echo\n\nconst (\n\t// Version of Echo\n\tVersion = \"\(version)\"\n)\n"]
        }
        try Self.commit(repo, "Changelog for v4.15.4", day: 1, files: constant("4.15.4"))
        try repo.git("tag", "v4.15.4")
        try repo.git("branch", "v4")
        try Self.commit(repo, "v5", day: 2, files: constant("5.3.1"))
        try repo.git("tag", "v5.3.1")
        try repo.git("checkout", "-q", "v4")
        try Self.commit(repo, "fix: a header", day: 3, files: ["context.go": "package echo\n"])
        let made = try relctl(["init"], in: repo.url)
        #expect(made.status == 0, "\(made)")
        #expect(!made.stderr.contains("no [[version]] names it"), "\(made)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[version]]\npath = \"echo.go\""), "\(config)")
        #expect(config.contains("range = \"4.x\""), "\(config)")
        let write = try relctl(["bump", "--write"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("echo.go").contains("Version = \"4.15.5\""))
    }

    /// hypothesis builds with maturin, whose dynamic version comes from `rust/Cargo.toml`
    /// (`[tool.maturin] manifest-path`): init read the version as the tag's and wrote no entry, so
    /// a release would tag 6.165.11 while the wheel still built 6.165.10. setuptools' release
    /// commits write `.bumpversion.cfg`'s `current_version` beside pyproject.toml: init left it out.
    @Test func initListsMaturinsCargoManifestAndBumpversionsCurrentVersion() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "Bump hypothesis version to 6.165.10", day: 1,
            files: [
                "pyproject.toml": "[build-system]\nrequires = [\"maturin>=1.5\"]\nbuild-backend = \"maturin\"\n\n[project]\nname = \"hypothesis\"\ndynamic = [\"version\"]\n\n[tool.maturin]\nmanifest-path = \"rust/Cargo.toml\"\n",
                "rust/Cargo.toml": "[package]\nname = \"hypothesis\"\nversion = \"6.165.10\"\nedition = \"2021\"\n",
            ])
        try repo.git("tag", "v6.165.10")
        try Self.commit(repo, "fix: shrink better", day: 2, files: ["rust/src/lib.rs": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[version]]\npath = \"rust/Cargo.toml\""), "\(config)")
        #expect(try relctl(["validate-tag", "v6.165.10"], in: repo.url).status == 0)

        let setuptools = try GitRepository()
        try Self.commit(
            setuptools, "Bump version: 83.0.0 → 84.0.0", day: 1,
            files: [
                "pyproject.toml": "[project]\nname = \"setuptools\"\nversion = \"84.0.0\"\n",
                ".bumpversion.cfg": "[bumpversion]\ncurrent_version = 84.0.0\ncommit = True\ntag = True\n",
            ])
        try setuptools.git("tag", "v84.0.0")
        try Self.commit(setuptools, "fix: a path", day: 2, files: ["setuptools/a.py": "\n"])
        #expect(try relctl(["init", "--quiet"], in: setuptools.url).status == 0)
        let written = try relctl(["bump", "--write"], in: setuptools.url)
        #expect(written.status == 0, "\(written)")
        #expect(try setuptools.directory.read(".bumpversion.cfg").contains("current_version = 84.0.1\n"))
    }

    /// FastAPI writes gitmoji subjects (`✨ Add support for …`, `🐛 Fix …`, `📝 Update release
    /// notes`): relctl read no type in them and proposed 0.140.2 where FastAPI released 0.141.0.
    /// ✨ is a feature, 🐛 a fix, 💥 a breaking change, as emoji or `:shortcode:`; 📝 is no type.
    @Test func gitmojiSubjectsCarryTheirChangeType() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "🔖 Release version 0.140.1", day: 1,
            files: ["pyproject.toml": "[project]\nname = \"fastapi\"\nversion = \"0.140.1\"\n"])
        try repo.git("tag", "0.140.1")
        try Self.commit(repo, "📝 Update release notes", day: 2, files: ["docs/release-notes.md": "x\n"])
        try Self.commit(repo, "🐛 Fix a crash with empty bodies (#16001)", day: 3, files: ["fastapi/a.py": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        var bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "0.140.2", "\(bump)")
        try Self.commit(repo, "\u{2728}\u{FE0F} Add support for Pydantic models in forms (#16002)", day: 4, files: ["fastapi/b.py": "\n"])
        bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "0.141.0", "\(bump)")
        let notes = try relctl(["notes"], in: repo.url)
        #expect(notes.stdout.contains("### Features\n\n- Add support for Pydantic models in forms (#16002)"), "\(notes)")
        #expect(notes.stdout.contains("### Bug fixes\n\n- Fix a crash with empty bodies (#16001)"), "\(notes)")
        try Self.commit(repo, ":boom: Drop Python 3.8", day: 5, files: ["fastapi/c.py": "\n"])
        bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "level") as? String == "major", "\(bump)")
    }

    /// eslint's last five releases were minors, each with a `feat:` among its commits: init wrote
    /// `cadence = "minor"`, and a fix-only range (9.39.1) was proposed as 9.40.0. Where every step
    /// is what its commits call for, the cadence adds nothing and is not written; where most steps
    /// say more than their commits (fix-only ranges released as minors), it is (session 62: one
    /// such step among five is no habit, mocha's release-please cut one minor by hand).
    @Test func aMinorCadenceTheCommitsAlreadyExplainIsNotWritten() throws {
        func history(fixOnlyMinor: Bool) throws -> GitRepository {
            let repo = try GitRepository()
            let manifest = { (version: String) in
                ["package.json": "{\n  \"name\": \"eslint\",\n  \"version\": \"\(version)\"\n}\n"]
            }
            try Self.commit(repo, "chore: 9.33.0", day: 1, files: manifest("9.33.0"))
            try repo.git("tag", "v9.33.0")
            for minor in 34...39 {
                let type = fixOnlyMinor && (35...37).contains(minor) ? "fix" : "feat"
                try Self.commit(repo, "\(type): change \(minor)", day: minor - 32, files: ["lib/\(minor).js": "\n"])
                try Self.commit(repo, "chore: 9.\(minor).0", day: minor - 32, files: manifest("9.\(minor).0"))
                try repo.git("tag", "v9.\(minor).0")
            }
            try Self.commit(repo, "fix: a crash", day: 10, files: ["lib/fix.js": "\n"])
            #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
            return repo
        }
        let typed = try history(fixOnlyMinor: false)
        #expect(!(try typed.directory.read("relctl.toml")).contains("cadence = "))
        let bump = try relctl(["bump", "--json"], in: typed.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "9.39.1", "\(bump)")
        let habit = try history(fixOnlyMinor: true)
        #expect(try habit.directory.read("relctl.toml").contains("cadence = \"minor\""))
    }

    /// setuptools keeps towncrier's default types, and its newsfragments/README.rst says
    /// "``removal``: Any backwards-compatibility breaking change": each release with a removal
    /// fragment was a major (74.0.0 … 84.0.0), relctl proposed minors (4 points). Where the
    /// fragment folder's README calls the type breaking, a removal is a major; elsewhere
    /// (urllib3's "Deprecations and Removals" in minors) it stays a minor.
    @Test func aRemovalFragmentIsAMajorWhereTheFragmentReadmeSaysItBreaks() throws {
        func project(readme: String) throws -> GitRepository {
            let repo = try GitRepository()
            try Self.commit(
                repo, "Bump version: 80.10.2", day: 1,
                files: [
                    "pyproject.toml": "[project]\nname = \"setuptools\"\nversion = \"80.10.2\"\n\n[tool.towncrier]\ndirectory = \"newsfragments\"\n",
                    "newsfragments/README.rst": readme,
                ])
            try repo.git("tag", "v80.10.2")
            try Self.commit(repo, "Remove the deprecated easy_install", day: 2, files: ["newsfragments/4872.removal.rst": "Removed easy_install.\n"])
            #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
            return repo
        }
        let setuptools = try project(
            readme: "Categories:\n\n- ``feature``: Any backwards compatible code change\n- ``removal``: Any backwards-compatibility breaking change\n")
        let bump = try relctl(["bump", "--json"], in: setuptools.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "81.0.0", "\(bump)")
        let other = try project(readme: "- ``removal``: a deprecation or a removal, never a breaking change in a minor... (non-breaking)\n")
        let minor = try relctl(["bump", "--json"], in: other.url)
        #expect(try Self.field(minor.stdout, "next") as? String == "80.11.0", "\(minor)")
    }

    /// futures-rs' `1.20` of 2018, a typo tag on the commit of 0.1.20, contained by the 0.1.21 …
    /// 0.1.31 released after it: relctl took it as the latest release, proposed `2.0.0` on main
    /// (whose latest is 0.3.33) and `1.20.1` on the `0.1` branch, where init wrote no range. A final
    /// its own line went on past with lower versions is no release; a new major beside a later
    /// backport (which never contains it) still is.
    @Test func aStrayFinalTagItsLineWentOnPastIsNotTheLatestRelease() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["Cargo.toml": "[package]\nname = \"futures\"\nversion = \"\(version)\"\n"]
        }
        try Self.commit(repo, "Bump to 0.1.20", day: 1, files: manifest("0.1.20"))
        try repo.git("tag", "0.1.20")
        try repo.git("tag", "1.20")
        try repo.git("branch", "0.1")
        try Self.commit(repo, "Bump to 0.3.0", day: 2, files: manifest("0.3.0"))
        try repo.git("tag", "0.3.0")
        try Self.commit(repo, "fix: poll order", day: 3, files: ["src/lib.rs": "\n"])
        try repo.git("checkout", "-q", "0.1")
        try Self.commit(repo, "Bump to 0.1.21", day: 4, files: manifest("0.1.21"))
        try repo.git("tag", "0.1.21")
        try Self.commit(repo, "fix: a 0.1 leak", day: 5, files: ["src/old.rs": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("range = \"0.1.x\""), "\(config)")
        let line = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(line.stdout, "next") as? String == "0.1.22", "\(line)")
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try repo.git("checkout", "-q", "main")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let main = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(main.stdout, "current") as? String == "0.3.0", "\(main)")
        #expect(try Self.field(main.stdout, "next") as? String == "0.3.1", "\(main)")
    }

    /// futures-rs' virtual workspace: init listed the unpublished `futures/tests/macro-tests` and
    /// `examples/functional` crates' binaries under `[build]`, for a library that ships none.
    @Test func initListsNoBinaryOfAnUnpublishedTestOrExampleCrate() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "start", day: 1,
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"futures\", \"futures/tests/macro-tests\", \"examples/functional\", \"tool\"]\n",
                "futures/Cargo.toml": "[package]\nname = \"futures\"\nversion = \"0.3.33\"\n",
                "futures/src/lib.rs": "\n",
                "futures/tests/macro-tests/Cargo.toml": "[package]\nname = \"macro-tests\"\nversion = \"0.0.0\"\npublish = false\n",
                "futures/tests/macro-tests/src/main.rs": "fn main() {}\n",
                "examples/functional/Cargo.toml": "[package]\nname = \"futures-example-functional\"\nversion = \"0.0.0\"\npublish = false\n",
                "examples/functional/src/main.rs": "fn main() {}\n",
                "tool/Cargo.toml": "[package]\nname = \"futures-tool\"\nversion = \"0.3.33\"\npublish = false\n",
                "tool/src/main.rs": "fn main() {}\n",
            ])
        try repo.git("tag", "0.3.33")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("binaries = [\"futures-tool\"]"), "an unpublished application is kept: \(config)")
    }

    /// go-playground/validator has a branch `v9` and a tag `v9`: git's `--short` spells the branch
    /// `heads/v9`, and init wrote `[[branch]] name = "heads/v9"`, which CI's `GITHUB_REF_NAME=v9`
    /// never matches (a detached checkout then got main's 10.30.4). vitest's `v4` holds the latest
    /// final (4.1.11) while main releases `5.0.0-rc.N`: init wrote no range and left `v4` out of
    /// `[release] branches`, so `release --dry-run` refused the branch the project releases from.
    @Test func aBranchNamedLikeATagAndAMajorLineBesideTheNextMajorsPrereleases() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"vitest\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "chore: release v9.31.0", day: 1, files: manifest("9.31.0"))
        try repo.git("tag", "v9.31.0")
        try repo.git("tag", "v9")
        try repo.git("branch", "v9")
        try Self.commit(repo, "chore: release v10.30.3", day: 2, files: manifest("10.30.3"))
        try repo.git("tag", "v10.30.3")
        try repo.git("checkout", "-q", "v9")
        try Self.commit(repo, "fix: a v9 backport", day: 3, files: ["lib/a.js": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"v9\"\nrange = \"9.x\""), "\(config)")
        try repo.git("checkout", "-q", "--detach")
        let ci = try relctl(
            ["bump", "--json"], in: repo.url, environment: ["GITHUB_REF_TYPE": "branch", "GITHUB_REF_NAME": "v9"])
        #expect(try Self.field(ci.stdout, "next") as? String == "9.31.1", "\(ci)")

        let vitest = try GitRepository()
        try Self.commit(vitest, "chore: release v4.1.11", day: 1, files: manifest("4.1.11"))
        try vitest.git("tag", "v4.1.11")
        try vitest.git("branch", "v4")
        try Self.commit(vitest, "chore: release v5.0.0-rc.2", day: 2, files: manifest("5.0.0-rc.2"))
        try vitest.git("tag", "v5.0.0-rc.2")
        try vitest.git("checkout", "-q", "v4")
        try Self.commit(vitest, "fix: a runner crash", day: 3, files: ["lib/b.js": "\n"])
        #expect(try relctl(["init", "--quiet"], in: vitest.url).status == 0)
        let line = try vitest.directory.read("relctl.toml")
        #expect(line.contains("[[branch]]\nname = \"v4\"\nrange = \"4.x\""), "\(line)")
        #expect(try relctl(["bump", "--write"], in: vitest.url).status == 0)
        try Self.commit(vitest, "chore: release v4.1.12", day: 4)
        let dry = try relctl(["release", "v4.1.12", "--dry-run"], in: vitest.url)
        #expect(dry.status == 0, "\(dry)")
    }

    /// go-playground/validator's `_examples/validate_fn` has its own go.mod: the go tool ignores
    /// `_` folders, and init skipped them when looking for nested modules, so dependabot's bumps
    /// there made a root release (`fix(examples): tweak` gave v10.30.4).
    @Test func aNestedGoModuleInAnUnderscoreFolderIsNotTheRootsChange() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module github.com/go-playground/validator/v10\n\ngo 1.22\n")
        try repo.directory.write("_examples/validate_fn/go.mod", "module main\n\ngo 1.22\n")
        try Self.commit(repo, "Release v10.30.3", day: 1, files: ["validator.go": "package validator\n"])
        try repo.git("tag", "v10.30.3")
        try Self.commit(repo, "fix(examples): tweak", day: 2, files: ["_examples/validate_fn/main.go": "package main\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("\"_examples/validate_fn/**\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "commits") as? Int == 0, "\(bump)")
    }

    /// pydantic-core keeps a package.json at 1.0.0 "for running wasm tests" beside Cargo.toml's
    /// 2.41.5: init listed both, `check` warned that they disagree, `validate-tag v2.41.5` refused
    /// the project's own release tag and `bump --write` wrote 2.41.6 into the test file.
    @Test func aNeverTaggedManifestBelowTheLatestReleaseIsNotListed() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "Bump version to 2.41.5", day: 1,
            files: [
                "Cargo.toml": "[package]\nname = \"pydantic-core\"\nversion = \"2.41.5\"\n",
                "package.json": "{\n  \"name\": \"pydantic-core\",\n  \"version\": \"1.0.0\",\n  \"description\": \"for running wasm tests.\"\n}\n",
            ])
        try repo.git("tag", "v2.41.5")
        try Self.commit(repo, "fix: a validator", day: 2, files: ["src/lib.rs": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("path = \"package.json\""), "\(config)")
        #expect(try relctl(["validate-tag", "v2.41.5"], in: repo.url).status == 0)
    }

    /// poetry-core's release commits write `src/poetry/core/__init__.py` beside pyproject.toml,
    /// rollup's `browser/package.json` beside package.json: init listed only the manifest, so
    /// `bump --write` left the others behind and `validate-tag` passed on a stale `__version__`.
    /// A file the latest release commit moved from the previous version to the released one, on
    /// one line, is listed; a changelog's new heading or a lock file is not.
    @Test func initListsTheFilesTheLatestReleaseCommitWroteTheVersionInto() throws {
        let repo = try GitRepository()
        func files(_ version: String, changelog: String) -> [String: String] {
            [
                "pyproject.toml": "[project]\nname = \"poetry-core\"\nversion = \"\(version)\"\n",
                "src/poetry/core/__init__.py": "from __future__ import annotations\n\n__version__ = \"\(version)\"\n",
                "src/version.rs": "pub const VERSION: &str = \"\(version)\";\n",
                "CHANGELOG.md": changelog,
            ]
        }
        try Self.commit(repo, "release: bump version to 2.3.1", day: 1, files: files("2.3.1", changelog: "# Changelog\n\n## [2.3.1]\n"))
        try repo.git("tag", "2.3.1")
        try Self.commit(repo, "fix: markers", day: 2, files: ["src/poetry/core/m.py": "\n"])
        try Self.commit(
            repo, "release: bump version to 2.3.2", day: 3,
            files: files("2.3.2", changelog: "# Changelog\n\n## [2.3.2]\n\n## [2.3.1]\n"))
        try repo.git("tag", "2.3.2")
        try Self.commit(repo, "fix: a wheel tag", day: 4, files: ["src/poetry/core/w.py": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"src/poetry/core/__init__.py\""), "\(config)")
        #expect(config.contains("path = \"src/version.rs\"\nkind = \"regex\""), "\(config)")
        #expect(!config.contains("path = \"CHANGELOG.md\""), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let write = try relctl(["bump", "--write"], in: repo.url)
        #expect(write.status == 0, "\(write)")
        #expect(try repo.directory.read("src/poetry/core/__init__.py").contains("__version__ = \"2.3.3\""))
        #expect(try repo.directory.read("src/version.rs") == "pub const VERSION: &str = \"2.3.3\";\n")
    }

    /// apollo-client's `version-3.x` (range `3.x`, init's since the branch holds the latest final
    /// beside main's 4.0 prereleases) while `3.14.0-rc.0` is tagged on `release-3.14`, which it
    /// does not contain: the branch counted from the rc and proposed 3.14.0-rc.1; its next was 3.13.9.
    @Test func aMaintenanceLineCountsFromNoPrereleaseItDoesNotContain() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\n  \"name\": \"@apollo/client\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        try Self.commit(repo, "Version Packages", day: 1, files: manifest("3.13.8"))
        try repo.git("tag", "v3.13.8")
        try repo.git("branch", "version-3.x")
        try repo.git("checkout", "-q", "-b", "release-3.14")
        try Self.commit(repo, "Version Packages (rc)", day: 2, files: manifest("3.14.0-rc.0"))
        try repo.git("tag", "v3.14.0-rc.0")
        try repo.git("checkout", "-q", "version-3.x")
        try Self.commit(repo, "fix: a cache leak", day: 3, files: ["src/cache.ts": "\n"])
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"client\"\n\n[[version]]\npath = \"package.json\"\n\n[[branch]]\nname = \"version-3.x\"\nrange = \"3.x\"\n")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "3.13.9", "\(bump)")
    }
}
