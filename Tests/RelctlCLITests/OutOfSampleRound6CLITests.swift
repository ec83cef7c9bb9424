import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the sixth out-of-sample round of the back-test found (session 62: scrapy, sphinx,
/// pytest-xdist, cattrs, rust-bindgen, zellij, mocha, kind), each on a generated repository of the
/// shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound6CLITests {
    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    @discardableResult
    static func commit(_ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    /// scrapy's hatch reads its version from `scrapy/VERSION` (`2.18.0`, `pattern = "^(?P<version>.+)$"`):
    /// init wrote it as a Python module, and `check` exited 2 ("expected `__version__ = …`").
    @Test func aHatchVersionFileThatIsNoModuleIsReadByItsPattern() throws {
        let repo = try GitRepository()
        let pyproject = """
            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            [project]
            name = "Scrapy"
            dynamic = ["version"]

            [tool.hatch.version]
            path = "scrapy/VERSION"
            pattern = "^(?P<version>.+)$"

            """
        try Self.commit(repo, "Bump version: 2.17.0 → 2.18.0", day: 1, files: ["pyproject.toml": pyproject, "scrapy/VERSION": "2.18.0\n"])
        try repo.git("tag", "2.18.0")
        try Self.commit(repo, "Fix a crawler leak", day: 2, files: ["scrapy/crawler.py": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0, "\(checked)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("scrapy/VERSION") == "2.18.1\n")
    }

    /// sphinx writes `__version__: Final = '9.0.0rc4'` (flit reads it): init said the version came
    /// from the tag, and plan continued the candidates (9.0.0-rc.5) where sphinx released 9.0.0.
    @Test func anAnnotatedVersionIsReadAndItsReleasedCandidatePromoted() throws {
        let repo = try GitRepository()
        let pyproject = "[build-system]\nrequires = [\"flit_core>=3.12\"]\nbuild-backend = \"flit_core.buildapi\"\n\n[project]\nname = \"Sphinx\"\ndynamic = [\"version\"]\n"
        func module(_ version: String) -> String { "from typing import Final\n\n__version__: Final = '\(version)'\n" }
        try Self.commit(repo, "Bump to 9.0.0 candidate 4", day: 1, files: ["pyproject.toml": pyproject, "sphinx/__init__.py": module("9.0.0rc4")])
        try repo.git("tag", "v9.0.0rc4")
        try Self.commit(repo, "Fix a search index crash", day: 2, files: ["sphinx/search.py": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"sphinx/__init__.py\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "9.0.0", "\(bump)")
    }

    /// pytest-xdist's CHANGELOG.rst heads its sections `pytest-xdist 3.3.0 (2023-05-12)`: init
    /// wrote no `changelog`, and plan proposed 3.2.2 where the section's Features made 3.3.0.
    @Test func aChangelogWhoseHeadingsNameTheProjectIsRead() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "Release 3.2.1", day: 1,
            files: [
                "pyproject.toml": "[project]\nname = \"pytest-xdist\"\nversion = \"3.2.1\"\n",
                "CHANGELOG.rst": "pytest-xdist 3.2.1 (2023-03-12)\n===============================\n\nBug Fixes\n---------\n\n- A fix.\n",
            ])
        try repo.git("tag", "v3.2.1")
        try Self.commit(
            repo, "Release 3.3.0", day: 2,
            files: [
                "CHANGELOG.rst":
                    "pytest-xdist 3.3.0 (2023-05-12)\n===============================\n\nFeatures\n--------\n\n- A new option.\n\npytest-xdist 3.2.1 (2023-03-12)\n===============================\n\nBug Fixes\n---------\n\n- A fix.\n",
                "src/xdist/plugin.py": "a\n",
            ])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("changelog = \"CHANGELOG.rst\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "3.3.0", "\(bump)")
    }

    /// cattrs counts each year's releases (`YY.N.0`) with emergency patches between them (25.1.1,
    /// and 24.1.3 tagged in 2025): init wrote no cadence, and plan proposed 25.2.1 for 25.3.0.
    @Test func aYearCounterWithEmergencyPatchesIsStillTheCadence() throws {
        let repo = try GitRepository()
        try repo.commit("start", files: ["HISTORY.md": "a\n"], date: "2023-01-02T10:00:00Z")
        for (version, date) in [
            ("23.1.0", "2023-04-01"), ("23.2.0", "2023-11-01"), ("24.1.0", "2024-03-01"), ("24.2.0", "2024-08-01"),
            ("24.1.3", "2025-01-05"), ("25.1.0", "2025-01-20"), ("25.1.1", "2025-02-01"), ("25.2.0", "2025-06-01"),
        ] {
            try repo.commit("v\(version)", files: ["src/cattrs/v.txt": version + "\n"], date: date + "T10:00:00Z")
            try repo.git("tag", "v" + version)
        }
        try repo.commit("Fix a structuring hook", files: ["src/cattrs/a.py": "a\n"], date: "2025-09-01T10:00:00Z")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("cadence = \"year-counter\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "25.3.0", "\(bump)")
    }

    /// rust-bindgen's virtual workspace holds 0.72.0 in bindgen and bindgen-cli (tagged v0.72.0) while
    /// 0.72.1 was tagged on a release branch: init listed no manifest, `check` warned about init's own
    /// file and `validate-tag` matched 0 manifests.
    @Test func aVirtualWorkspacesLineIsTheTaggedVersionItsCratesHold() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String { "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n" }
        try Self.commit(
            repo, "chore: Release", day: 1,
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"bindgen\", \"bindgen-cli\", \"bindgen-tests\"]\n",
                "bindgen/Cargo.toml": crate("bindgen", "0.72.0"), "bindgen/src/lib.rs": "\n",
                "bindgen-cli/Cargo.toml": crate("bindgen-cli", "0.72.0"), "bindgen-cli/src/lib.rs": "\n",
                "bindgen-tests/Cargo.toml": crate("bindgen-tests", "0.1.0") + "publish = false\n", "bindgen-tests/src/lib.rs": "\n",
            ])
        try repo.git("tag", "v0.72.0")
        try repo.git("checkout", "-q", "-b", "v0.72.x")
        try Self.commit(
            repo, "chore: Release", day: 2,
            files: ["bindgen/Cargo.toml": crate("bindgen", "0.72.1"), "bindgen-cli/Cargo.toml": crate("bindgen-cli", "0.72.1")])
        try repo.git("tag", "v0.72.1")
        try repo.git("checkout", "-q", "main")
        try Self.commit(repo, "fix: a layout test", day: 3, files: ["bindgen/src/lib.rs": "// a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"bindgen/Cargo.toml\"") && config.contains("path = \"bindgen-cli/Cargo.toml\""), "\(config)")
        let checked = try relctl(["check"], in: repo.url)
        #expect(checked.status == 0 && !checked.stderr.contains("warning"), "\(checked)")
    }

    /// zellij's root package and its crates hold one version as literals, all written by each
    /// release commit: init listed the root's Cargo.toml only, and `bump --write` left the crates
    /// and the root's pins on them behind.
    @Test func aRootPackagesWorkspaceCratesInLockstepAreListed() throws {
        let repo = try GitRepository()
        let root = "[package]\nname = \"zellij\"\nversion = \"0.42.0\"\n\n[dependencies]\nzellij-utils = { path = \"zellij-utils\", version = \"0.42.0\" }\n\n[workspace]\nmembers = [\".\", \"zellij-utils\"]\n"
        try Self.commit(
            repo, "chore(release): v0.42.0", day: 1,
            files: [
                "Cargo.toml": root, "src/main.rs": "fn main() {}\n",
                "zellij-utils/Cargo.toml": "[package]\nname = \"zellij-utils\"\nversion = \"0.42.0\"\n", "zellij-utils/src/lib.rs": "\n",
            ])
        try repo.git("tag", "v0.42.0")
        try Self.commit(repo, "fix(utils): a layout parse", day: 2, files: ["zellij-utils/src/lib.rs": "// a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"zellij-utils/Cargo.toml\""), "\(config)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("zellij-utils/Cargo.toml").contains("version = \"0.42.1\""))
        #expect(try repo.directory.read("Cargo.toml").contains("version = \"0.42.1\" }"))
    }

    /// mocha releases with release-please: four of its five minor steps held a `feat:`, the fifth was
    /// cut by hand. init wrote `cadence = "minor"` and plan proposed 11.8.0 for the fix-only 11.7.1.
    @Test func noMinorCadenceWhereMostStepsAreExplainedByTheirCommits() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] { ["package.json": "{\n  \"name\": \"mocha\",\n  \"version\": \"\(version)\"\n}\n"] }
        var day = 1
        try Self.commit(repo, "chore(main): release 11.2.2", day: day, files: manifest("11.2.2"))
        try repo.git("tag", "v11.2.2")
        for (minor, subject) in [(3, "feat: a"), (4, "fix: b"), (5, "feat: c"), (6, "feat: d"), (7, "feat: e")] {
            day += 1
            try Self.commit(repo, subject, day: day, files: ["lib/f\(minor).js": "\n"])
            try Self.commit(repo, "chore(main): release 11.\(minor).0", day: day, files: manifest("11.\(minor).0"))
            try repo.git("tag", "v11.\(minor).0")
        }
        try Self.commit(repo, "fix: always fall back to import()", day: day + 1, files: ["lib/g.js": "\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("cadence = \"minor\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "11.7.1", "\(bump)")
    }

    /// kind tags `v0.32.0-alpha` on the commit after v0.31.0 as 0.32's work begins, and never an
    /// `-alpha.N`: plan proposed `0.32.0-alpha.1`; the next release is 0.32.0. mocha's
    /// release-please spells its counters `beta-8`: plan proposed `beta-8.1`, the next is `beta-9`.
    @Test func aBareAlphaOpeningEachVersionAndAHyphenatedCounter() throws {
        let repo = try GitRepository()
        var day = 1
        for (version, tag) in [("0.30.0", "v0.30.0"), ("0.31.0-alpha", "v0.31.0-alpha"), ("0.31.0", "v0.31.0"), ("0.32.0-alpha", "v0.32.0-alpha")] {
            try Self.commit(repo, "version \(tag)", day: day, files: ["version.txt": version + "\n"])
            try repo.git("tag", tag)
            day += 1
        }
        try Self.commit(repo, "fix: a cluster create race", day: day, files: ["pkg/a.go": "package a\n"])
        try repo.directory.write("relctl.toml", "[project]\nname = \"kind\"\n")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "0.32.0", "\(bump)")

        let beta = try GitRepository()
        try Self.commit(beta, "chore: release", day: 1, files: ["package.json": "{\n  \"name\": \"mocha\",\n  \"version\": \"12.0.0-beta-8\"\n}\n"])
        for counter in 7...8 { try beta.git("tag", "v12.0.0-beta-\(counter)") }
        try Self.commit(beta, "feat: an option", day: 2, files: ["lib/a.js": "\n"])
        try beta.directory.write("relctl.toml", "[project]\nname = \"mocha\"\n\n[[version]]\npath = \"package.json\"\n")
        let next = try relctl(["bump", "--json"], in: beta.url)
        #expect(try Self.field(next.stdout, "next") as? String == "12.0.0-beta-9", "\(next)")
    }

    /// svelte's language-tools: a changeset names `svelte-check` though no commit since its latest
    /// release touched its folder; `changeset version` releases it, and plan said `none`.
    @Test func aChangesetNamingAPackageReleasesItWithoutCommits() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "chore: init", day: 1,
            files: [
                "package.json": "{\"private\":true,\"workspaces\":[\"packages/*\"]}\n", ".changeset/config.json": "{\"baseBranch\":\"main\"}\n",
                "packages/a/package.json": "{\"name\":\"a\",\"version\":\"1.0.0\"}\n", "packages/b/package.json": "{\"name\":\"b\",\"version\":\"1.0.0\"}\n",
            ])
        try repo.git("tag", "a@1.0.0")
        try repo.git("tag", "b@1.0.0")
        try Self.commit(
            repo, "feat: a thing", day: 2, files: ["packages/a/x.js": "x\n", ".changeset/c1.md": "---\n'a': minor\n'b': minor\n---\n\nA thing.\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let plan = try relctl(["plan"], in: repo.url)
        let row = plan.stdout.split(separator: "\n").first { $0.hasPrefix("b ") }.map(String.init) ?? ""
        #expect(row.contains("1.1.0") && row.contains("b@1.1.0"), "\(plan)")
    }

    /// solid-js moved from 358 `v` tags (up to v1.9.13) to `solid-js@` tags: init gave the `v` series
    /// to solid-element because it holds 1.9.2, a version the series once released, and plan proposed
    /// `v1.9.14` for it. tailwindcss' private root package.json holds 1.0.0 while its packages hold the
    /// tagged 4.3.3: init listed the root, and `validate-tag v4.3.3` refused the project's own tag.
    @Test func aBareSeriesAnotherMemberMovedOnFromAndAPrivateRootBesideTheLine() throws {
        let repo = try GitRepository()
        func package(_ name: String, _ version: String) -> String { "{\"name\":\"\(name)\",\"version\":\"\(version)\"}\n" }
        try Self.commit(
            repo, "v1.9.2", day: 1,
            files: [
                "package.json": "{\"private\":true,\"workspaces\":[\"packages/*\"]}\n",
                "packages/solid/package.json": package("solid-js", "1.9.2"), "packages/solid-element/package.json": package("solid-element", "1.9.2"),
            ])
        try repo.git("tag", "v1.9.2")
        try Self.commit(repo, "v1.9.13", day: 2, files: ["packages/solid/package.json": package("solid-js", "1.9.13")])
        try repo.git("tag", "v1.9.13")
        try Self.commit(repo, "solid-js@1.9.15", day: 3, files: ["packages/solid/package.json": package("solid-js", "1.9.15")])
        try repo.git("tag", "solid-js@1.9.15")
        try Self.commit(repo, "fix(element): an attribute", day: 4, files: ["packages/solid-element/a.js": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(!config.contains("solid-element = \"v{version}\""), "\(config)")

        let tailwind = try GitRepository()
        try Self.commit(
            tailwind, "4.3.3", day: 1,
            files: [
                "package.json": "{\"name\":\"@tailwindcss/root\",\"private\":true,\"version\":\"1.0.0\",\"workspaces\":[\"packages/*\"]}\n",
                "packages/tailwindcss/package.json": package("tailwindcss", "4.3.3"),
                "packages/@tailwindcss-cli/package.json": package("@tailwindcss/cli", "4.3.3"),
            ])
        try tailwind.git("tag", "v4.3.3")
        try Self.commit(tailwind, "Fix a candidate parse", day: 2, files: ["packages/tailwindcss/a.ts": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: tailwind.url).status == 0)
        let lines = try tailwind.directory.read("relctl.toml")
        #expect(!lines.contains("path = \"package.json\"") && lines.contains("path = \"packages/tailwindcss/package.json\""), "\(lines)")
        try tailwind.git("checkout", "-q", "v4.3.3")
        let validated = try relctl(["validate-tag", "v4.3.3"], in: tailwind.url)
        #expect(validated.status == 0, "\(validated)")
    }

    /// pipenv: `version = {attr = "pipenv.__version__"}`, which `pipenv/__init__.py` re-exports
    /// from `pipenv/__version__.py`: init said the version came from the tag. Its one padded tag of
    /// 2018 (`v2018.05.18`) among hundreds of `v2026.8.1`-like ones padded the next: `v2026.08.1`.
    @Test func aReExportedVersionModuleAndPaddingByMostTags() throws {
        let repo = try GitRepository()
        let pyproject = "[build-system]\nrequires = [\"setuptools>=67\"]\nbuild-backend = \"setuptools.build_meta\"\n\n[project]\nname = \"pipenv\"\ndynamic = [\"version\"]\n\n[tool.setuptools.dynamic]\nversion = {attr = \"pipenv.__version__\"}\n"
        try repo.commit("2018", files: ["pyproject.toml": pyproject, "pipenv/__init__.py": "from pipenv.__version__ import __version__\n", "pipenv/__version__.py": "__version__ = \"2018.05.18\"\n"], date: "2018-05-18T10:00:00Z")
        try repo.git("tag", "v2018.05.18")
        for (version, date) in [("2026.5.0", "2026-05-02"), ("2026.6.0", "2026-06-02"), ("2026.7.0", "2026-07-02"), ("2026.8.0", "2026-08-02")] {
            try repo.commit("Release v\(version)", files: ["pipenv/__version__.py": "__version__ = \"\(version)\"\n"], date: date + "T10:00:00Z")
            try repo.git("tag", "v" + version)
        }
        try repo.commit("Fix a lock resolution", files: ["pipenv/a.py": "a\n"], date: "2026-08-10T10:00:00Z")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"pipenv/__version__.py\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "tag") as? String == "v2026.8.1", "\(bump)")
    }

    /// apollo-server's response-cache plugin tagged `5.0.1-rc.0` in changesets' pre mode, then left
    /// it with the package back at 5.0.0 and `.changeset/pre.json` gone: plan proposed
    /// `5.0.1-rc.1`. Out of pre mode changesets releases finals.
    @Test func aChangesetsPrereleaseLeftBehindIsNotContinued() throws {
        let cache = try ChangesetsPackageFixture(
            package: "@apollo/server-plugin-response-cache", project: "cache", tagFormat: "v{version}")
        let (repo, manifest) = (cache.repo, cache.manifest)
        try Self.commit(repo, "Version packages", day: 1, files: manifest("5.0.0"))
        try repo.git("tag", "v5.0.0")
        try Self.commit(repo, "Version packages (rc)", day: 2, files: manifest("5.0.1-rc.0").merging(cache.pre("pre", "rc")) { $1 })
        try repo.git("tag", "v5.0.1-rc.0")
        try Self.commit(repo, "Exit pre mode", day: 3, files: manifest("5.0.0"))
        try repo.git("rm", "-q", ".changeset/pre.json")
        try Self.commit(
            repo, "Fix a cache key", day: 4,
            files: cache.changeset("calm-cats", "patch", "Cache key."))
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "5.0.1", "\(bump)")
        #expect(bump.stderr.contains("not in prerelease mode"), "\(bump)")
    }

    /// pyOpenSSL's setup.py reads `__version__` from `os.path.join("src", "OpenSSL", "version.py")`
    /// with a regex, and its pyproject.toml holds tool settings only: init listed no version, so
    /// `bump --write` changed nothing.
    @Test func aVersionFileSetupPyNamesByPathIsListed() throws {
        let repo = try GitRepository()
        let setup = """
            import os, re
            from setuptools import setup
            META_PATH = os.path.join("src", "OpenSSL", "version.py")
            META_FILE = open(META_PATH).read()
            def find_meta(meta):
                return re.search(rf"^__{meta}__ = ['\\"]([^'\\"]*)['\\"]", META_FILE, re.M).group(1)
            setup(name="pyOpenSSL", version=find_meta("version"))

            """
        try Self.commit(
            repo, "Prepare 25.3.0", day: 1,
            files: [
                "setup.py": setup, "pyproject.toml": "[tool.mypy]\nstrict = true\n",
                "src/OpenSSL/version.py": "__title__ = \"pyOpenSSL\"\n__version__ = \"25.3.0\"\n",
            ])
        try repo.git("tag", "25.3.0")
        try Self.commit(repo, "Fix a verify callback", day: 2, files: ["src/OpenSSL/SSL.py": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"src/OpenSSL/version.py\""), "\(config)")
        let bumped = try relctl(["bump", "--write"], in: repo.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(try repo.directory.read("src/OpenSSL/version.py").contains("__version__ = \"25.3.1\""))
    }
}
