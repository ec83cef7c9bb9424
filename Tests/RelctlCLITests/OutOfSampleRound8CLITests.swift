import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the eighth out-of-sample round of the back-test found (session 65: gunicorn, structlog,
/// tiptap, …), each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound8CLITests {
    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    @discardableResult
    static func commit(_ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    /// gunicorn keeps its version as `version_info = (26, 1, 0)` and joins `__version__` from it:
    /// relctl read `__version__ = ".".join(…)` as the version `.`, so `check` exited 2 straight
    /// after `init`, and plan ignored the manifest (7 of gunicorn's 20 release points missed).
    @Test func aVersionTupleIsReadCheckedAndWrittenInItsShape() throws {
        let repo = try GitRepository()
        let module = """
            # gunicorn/__init__.py
            version_info = (25, 1, 0)
            __version__ = ".".join([str(v) for v in version_info])
            SERVER = "gunicorn"

            """
        let pyproject = """
            [project]
            name = "gunicorn"
            dynamic = ["version"]

            [tool.setuptools.dynamic]
            version = {attr = "gunicorn.__version__"}

            """
        try Self.commit(repo, "release 25.1.0", day: 1, files: ["pyproject.toml": pyproject, "gunicorn/__init__.py": module])
        try repo.git("tag", "25.1.0")
        // The maintainers raise the tuple ahead of the release, with untyped subjects.
        try Self.commit(
            repo, "Add the ASGI worker", day: 2,
            files: ["gunicorn/__init__.py": module.replacingOccurrences(of: "(25, 1, 0)", with: "(25, 2, 0)")])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"gunicorn/__init__.py\""), "\(config)")
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "25.2.0", "\(bump)")
        try Self.commit(repo, "Fix the reload", day: 3)
        let written = try relctl(["bump", "--write", "--set", "25.2.1"], in: repo.url)
        #expect(written.status == 0, "\(written)")
        let after = try repo.directory.read("gunicorn/__init__.py")
        #expect(after.contains("version_info = (25, 2, 1)\n__version__ = \".\".join("), "\(after)")
        // A prerelease has no place in a tuple of numbers: refused, nothing written.
        let refused = try relctl(["bump", "--write", "--set", "26.0.0rc1"], in: repo.url)
        #expect(refused.status == 2 && refused.stderr.contains("tuple `(25, 2, 1)`"), "\(refused)")
        #expect(try repo.directory.read("gunicorn/__init__.py") == after)
    }

    /// structlog numbers each year's releases from 1 (`17.1.0` … `25.1.0`), after 0.x and 15.0.0 /
    /// 16.0.0 from before the calendar: the first release of a new year was proposed as `YY.0.0`,
    /// the lowest first number over every year ever (3 of structlog's 10 release points).
    @Test func aYearsFirstReleaseIsNumberedAsTheRecentYearsWere() throws {
        let repository = try GitRepository()
        let releases = [
            ("0.4.2", "2014-07-26"), ("15.0.0", "2015-01-23"), ("16.0.0", "2016-01-28"), ("17.1.0", "2017-04-24"),
            ("18.1.0", "2018-01-27"), ("19.1.0", "2019-02-02"), ("19.2.0", "2019-10-16"), ("20.1.0", "2020-01-28"),
            ("21.1.0", "2021-02-18"), ("22.1.0", "2022-07-20"),
        ]
        for (version, day) in releases {
            let date = day + "T10:00:00Z"
            try repository.commit("Prepare \(version)", files: ["VERSION": version + "\n"], date: date)
            try repository.git(
                ["tag", "-a", version, "-m", version],
                environment: ["GIT_COMMITTER_DATE": date, "GIT_AUTHOR_DATE": date])
        }
        try repository.commit("Fix a thing", files: ["src/a.txt": "a\n"], date: "2023-03-01T10:00:00Z")
        let initialised = try relctl(["init"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repository.directory.read("relctl.toml")
        #expect(config.contains("cadence = \"year-counter\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "23.1.0", "\(bump)")
    }

    /// gunicorn 19.x kept its changelog as a Sphinx page, `docs/source/news.rst`, headed
    /// `19.8.0 / not released` ahead of the release: init looked only at the root and `docs/`, so
    /// the untyped history gave 19.7.2.
    @Test func aChangelogKeptAsADocumentationPageIsRead() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "release 19.7.1", day: 1, files: ["VERSION": "19.7.1\n"])
        try repo.git("tag", "19.7.1")
        let news = """
            =========
            Changelog
            =========

            19.8.0 / not released
            =====================

            - Eventlet 0.21.0 support
            - fix: close unlinked temporary files

            19.7.1 / 2017/03/21
            ===================

            - fix: continue if SO_REUSEPORT seems to be available but fails

            """
        try Self.commit(repo, "Add eventlet 0.21 support", day: 2, files: ["docs/source/news.rst": news])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("changelog = \"docs/source/news.rst\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "19.8.0", "\(bump)")
    }

    /// sentry-python: pyproject.toml names no version; the release commit `release: 2.68.0` moves
    /// `setup.py`'s `version="…",` and `sentry_sdk/consts.py`'s `VERSION` from 2.67.0 (2.67.1 was
    /// made beside it), and the tag sits on a later `Update CHANGELOG.md`. init listed no version
    /// file, so `check` compared nothing and `bump --write` wrote nothing.
    @Test func theReleaseCommitUnderAChangelogCommitNamesTheVersionFiles() throws {
        let repo = try GitRepository()
        func files(_ version: String) -> [String: String] {
            [
                "setup.py": "from setuptools import setup\n\nsetup(\n    name=\"sentry-sdk\",\n    version=\"\(version)\",\n)\n",
                "sentry_sdk/consts.py": "DEFAULT_QUEUE_SIZE = 100\nVERSION = \"\(version)\"\n",
                "pyproject.toml": "[dependency-groups]\ndev = [\"tox\"]\n",
            ]
        }
        try Self.commit(repo, "release: 2.67.0", day: 1, files: files("2.67.0"))
        try repo.git("tag", "2.67.0")
        try repo.git("checkout", "-q", "-b", "patches")
        try Self.commit(repo, "release: 2.67.1", day: 2, files: files("2.67.1"))
        try repo.git("tag", "2.67.1")
        try repo.git("checkout", "-q", "main")
        try Self.commit(repo, "feat: gate prompts", day: 3, files: ["sentry_sdk/ai.py": "x = 1\n"])
        try Self.commit(repo, "release: 2.68.0", day: 4, files: files("2.68.0"))
        try Self.commit(repo, "Update CHANGELOG.md", day: 5, files: ["CHANGELOG.md": "## 2.68.0\n\n- Gate prompts\n"])
        try repo.git("tag", "2.68.0")
        try Self.commit(repo, "fix: flush spans", day: 6, files: ["sentry_sdk/ai.py": "x = 2\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"sentry_sdk/consts.py\"") && config.contains("path = \"setup.py\""), "\(config)")
        #expect(try relctl(["check"], in: repo.url).status == 0)
        let written = try relctl(["bump", "--write"], in: repo.url)
        #expect(written.status == 0, "\(written)")
        #expect(try repo.directory.read("setup.py").contains("    version=\"2.68.1\",\n"))
        #expect(try repo.directory.read("sentry_sdk/consts.py").contains("VERSION = \"2.68.1\"\n"))
    }

    /// alembic and SQLAlchemy tag `rel_1_19_1`: relctl read none of them (init wrote `v{version}`
    /// with "no version tag yet", plan counted the whole history, 1,823 commits) and had no way to
    /// spell one (`rel_{version}` writes `rel_1.19.2`).
    @Test func tagsJoiningTheVersionsPartsWithUnderscoresAreReadAndWritten() throws {
        let repo = try GitRepository()
        func module(_ version: String) -> [String: String] {
            [
                "alembic/__init__.py": "__version__ = \"\(version)\"\n",
                "pyproject.toml": "[project]\nname = \"alembic\"\ndynamic = [\"version\"]\n\n[tool.setuptools.dynamic]\nversion = {attr = \"alembic.__version__\"}\n",
            ]
        }
        try Self.commit(repo, "- 1.18.4", day: 1, files: module("1.18.4"))
        try repo.git("tag", "rel_1_18_4")
        try Self.commit(repo, "- 1.19.0", day: 2, files: module("1.19.0"))
        try repo.git("tag", "rel_1_19_0")
        try Self.commit(repo, "Version 1.19.1 placeholder", day: 3, files: module("1.19.1"))
        try Self.commit(repo, "fix autogenerate of computed columns", day: 4, files: ["alembic/autogen.py": "x = 1\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("tag-format = \"rel_{major}_{minor}_{patch}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "current") as? String == "1.19.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "1.19.1", "\(bump)")
        #expect(try Self.field(bump.stdout, "tag") as? String == "rel_1_19_1", "\(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 2, "\(bump)")
        #expect(try relctl(["validate-tag", "rel_1_19_1"], in: repo.url).status == 0)
        let dotted = try relctl(["validate-tag", "rel_1.19.1"], in: repo.url)
        #expect(dotted.status == 2 && dotted.stderr.contains("`rel_1_2_3`"), "\(dotted)")
    }

    /// ratatui releases with release-plz (`release-plz.toml`), which takes a feat below 1.0.0 as a
    /// patch; its members had one or two 0.x releases each, too few for init to see the rule in
    /// the history, so a feat gave 0.31.0 where release-plz cut 0.30.1 (5 release points).
    @Test func releasePlzsConfigurationSaysCargosZeroMajorRule() throws {
        let repo = try GitRepository()
        let manifest = "[package]\nname = \"ratatui\"\nversion = \"0.30.0\"\nedition = \"2021\"\n"
        try Self.commit(
            repo, "chore: release v0.30.0", day: 1,
            files: ["Cargo.toml": manifest, "src/lib.rs": "\n", "release-plz.toml": "[workspace]\nsemver_check = false\n"])
        try repo.git("tag", "v0.30.0")
        try Self.commit(repo, "feat(layout): add Flex::SpaceEvenly", day: 2, files: ["src/lib.rs": "pub fn a() {}\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("zero-major = \"cargo\"   # release-plz.toml"), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "0.30.1", "\(bump)")
        // `features_always_increment_minor = true` turns the rule off.
        try Self.commit(
            repo, "chore: features are minors", day: 3,
            files: ["release-plz.toml": "[workspace]\nfeatures_always_increment_minor = true\n"])
        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(try !repo.directory.read("relctl.toml").contains("zero-major"))
    }

    /// nuxt depends on `@nuxt/nitro-server`, which names `nuxt` as its peer (a plugin naming its
    /// host): plan and bump refused the cycle with exit 2 at every release point (20 of them).
    @Test func aPeerDependencyOrdersNoRelease() throws {
        let repo = try GitRepository()
        let config = """
            [project]
            name = "nuxt"

            [workspace]
            members = ["packages/*"]
            tag-format = "{member}@{version}"

            """
        let nuxt = """
            {"name": "nuxt", "version": "4.5.2", "dependencies": {"@nuxt/nitro-server": "workspace:*"}}

            """
        let nitro = """
            {"name": "@nuxt/nitro-server", "version": "4.5.2", "peerDependencies": {"nuxt": "workspace:^"}}

            """
        try Self.commit(
            repo, "v4.5.2", day: 1,
            files: ["relctl.toml": config, "packages/nuxt/package.json": nuxt, "packages/nitro-server/package.json": nitro])
        try repo.git("tag", "nuxt@4.5.2")
        try repo.git("tag", "nitro-server@4.5.2")
        try Self.commit(repo, "fix(nuxt): handle an empty payload", day: 2, files: ["packages/nuxt/src/a.ts": "a\n"])
        let plan = try relctl(["plan", "--json"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("\"next\" : \"4.5.3\"") || plan.stdout.contains("\"next\":\"4.5.3\""), "\(plan)")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
    }

    /// cue's module is `cuelang.org/go` and resty's `resty.dev/v3`: init named the projects `go`
    /// and `resty.dev`, the host's words; the repository's folder names them.
    @Test func aVanityModulePathDoesNotNameTheProject() throws {
        for module in ["cuelang.org/go", "resty.dev/v3"] {
            let repo = try GitRepository()
            try Self.commit(repo, "initial", day: 1, files: ["go.mod": "module \(module)\n\ngo 1.22\n", "main.go": "package main\n"])
            try repo.git("tag", "v0.1.0")
            #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
            let config = try repo.directory.read("relctl.toml")
            #expect(config.contains("name = \"\(repo.url.lastPathComponent)\""), "\(module): \(config)")
        }
    }
}
