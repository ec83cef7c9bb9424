import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the out-of-sample rounds left for session 83 and its rounds 30 and 31 found: each on a
/// generated repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound30CLITests {
    /// jupyter notebook: a Python package at the root (`notebook/_version.py`, tagged `v7.5.1`)
    /// beside a private npm workspace whose packages are tagged `@jupyter-notebook/app@7.5.1` on
    /// the same commit at every release, more member tags than bare ones. init wrote a workspace
    /// of the npm packages with no member at the root, and `plan` gave no row for the release:
    /// 0 of 10 points (round 29). The bare series is the repository's: one line, its packages
    /// listed with the Python version.
    @Test func npmPackagesTaggedAtEachBareReleaseAreOneLineWithTheRoot() throws {
        let repository = try GitRepository()
        let pyproject = "[project]\nname = \"notebook\"\ndynamic = [\"version\"]\n\n[tool.hatch.version]\npath = \"notebook/_version.py\"\n"
        let root = "{\n  \"name\": \"@jupyter-notebook/root\",\n  \"version\": \"0.1.0\",\n  \"private\": true,\n  \"workspaces\": {\"packages\": [\"packages/*\"]}\n}\n"
        func files(_ version: String) -> [String: String] {
            var files = [
                "pyproject.toml": pyproject, "package.json": root, "notebook/_version.py": "__version__ = \"\(version)\"\n",
            ]
            for name in ["app", "tree", "lab-extension"] {
                files["packages/\(name)/package.json"] =
                    "{\n  \"name\": \"@jupyter-notebook/\(name)\",\n  \"version\": \"\(version)\"\n}\n"
            }
            return files
        }
        try repository.commit("Initial import", files: ["notebook/__init__.py": "\n"], date: "2020-01-10T10:00:00Z")
        for (index, old) in ["6.3.0", "6.4.0", "6.5.0"].enumerated() {
            try repository.commit(
                "Release \(old)", files: ["notebook/_version.py": "__version__ = \"\(old)\"\n"],
                date: "202\(index + 1)-02-10T10:00:00Z")
            try repository.git("tag", "v\(old)")
        }
        for (index, version) in ["7.0.0", "7.1.0", "7.2.0"].enumerated() {
            try repository.commit("Fix the toolbar (#\(index))", files: ["notebook/app.py": "# \(index)\n"], date: "2024-0\(index + 1)-10T10:00:00Z")
            try repository.commit("Publish \(version)", files: files(version), date: "2024-0\(index + 1)-11T10:00:00Z")
            try repository.git("tag", "v\(version)")
            for name in ["app", "tree", "lab-extension"] { try repository.git("tag", "@jupyter-notebook/\(name)@\(version)") }
        }
        try repository.commit("Fix the kernel menu", files: ["notebook/menu.py": "x\n"], date: "2024-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        #expect(!config.split(separator: "\n").contains("[workspace]"), "\(config)")
        #expect(config.contains("path = \"notebook/_version.py\""), "\(config)")
        #expect(config.contains("path = \"packages/app/package.json\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "7.2.1", "\(bump)")
    }

    /// kiota-python: eight Poetry projects under `packages/` that no package manager declares
    /// together, which release-please releases each on its own (`release-please-config.json`
    /// `packages`, tags `microsoft-kiota-abstractions-v1.11.3`) and at one version
    /// (`linked-versions`). init wrote no workspace, and in a member's folder its own series
    /// proposed nothing where a fix in another package released them all (5 points of round 29).
    @Test func releasePleasesPackagesAndLinkedVersionsMakeAWorkspaceAndAGroup() throws {
        let repository = try GitRepository()
        let config = """
            {
              "include-component-in-tag": true,
              "packages": {
                "packages/abstractions": {"component": "kit-abstractions", "release-type": "simple"},
                "packages/http/httpx": {"component": "kit-http", "release-type": "simple"}
              },
              "plugins": [{"type": "linked-versions", "groupName": "kit", "components": ["kit-abstractions", "kit-http"]}]
            }

            """
        func files(_ version: String) -> [String: String] {
            [
                "release-please-config.json": config,
                "packages/abstractions/pyproject.toml": "[project]\nname = \"kit-abstractions\"\nversion = \"\(version)\"\n",
                "packages/http/httpx/pyproject.toml": "[project]\nname = \"kit-http\"\nversion = \"\(version)\"\n",
            ]
        }
        for (index, version) in ["1.0.0", "1.1.0", "1.1.1"].enumerated() {
            try repository.commit(
                "fix: handle a timeout (#\(index))", files: ["packages/abstractions/src/t\(index).py": "x\n"],
                date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.commit("chore(main): release \(version)", files: files(version), date: "2025-0\(index + 1)-11T10:00:00Z")
            try repository.git("tag", "kit-abstractions-v\(version)")
            try repository.git("tag", "kit-http-v\(version)")
        }
        try repository.commit("fix: retry on reset", files: ["packages/abstractions/src/retry.py": "x\n"], date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(written.contains("members = [\"packages/abstractions\", \"packages/http/httpx\"]"), "\(written)")
        #expect(written.contains("tag-format = \"{member}-v{version}\""), "\(written)")
        #expect(written.contains("[[workspace.group]]\nname = \"kit\""), "\(written)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let http = rows.first { $0["name"] as? String == "kit-http" }
        #expect(http?["next"] as? String == "1.1.2", "\(rows)")
        #expect(http?["tag"] as? String == "kit-http-v1.1.2", "\(rows)")
        #expect(http?["reason"] as? String == "group", "\(rows)")
    }

    /// grpc-node's `packages/grpc-js` holds 1.12.2 ahead of its release, the day after
    /// `@grpc/grpc-js@1.12.1`, one of its 160 own tags; the repository's `v1.12.2` is the native
    /// `grpc` package's release of 2018. init took the bare series for naming the version held
    /// and proposed 1.13.0 as `v1.13.0` (3 points of round 29). The package's own series, a step
    /// below the version held, is its series still.
    @Test func aPackagesOwnSeriesContinuingToItsVersionOutranksAnOldBareTag() throws {
        let repository = try GitRepository()
        try repository.commit("Native grpc", files: ["src/node/package.json": "{\"name\": \"grpc\"}\n"], date: "2018-04-10T10:00:00Z")
        for old in ["v1.12.0", "v1.12.1", "v1.12.2"] {
            try repository.commit("Release \(old)", files: ["src/node/VERSION": "\(old)\n"], date: "2018-05-10T10:00:00Z")
            try repository.git("tag", old)
        }
        func manifest(_ version: String) -> [String: String] {
            ["packages/grpc-js/package.json": "{\n  \"name\": \"@grpc/grpc-js\",\n  \"version\": \"\(version)\"\n}\n"]
        }
        for (index, version) in ["1.11.3", "1.12.0", "1.12.1"].enumerated() {
            try repository.commit("grpc-js: Bump to \(version)", files: manifest(version), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "@grpc/grpc-js@\(version)")
        }
        try repository.commit("grpc-js: Bump to 1.12.2", files: manifest("1.12.2"), date: "2025-05-10T10:00:00Z")
        try repository.commit("grpc-js: Fix keepalive", files: ["packages/grpc-js/src/keepalive.ts": "x\n"], date: "2025-05-11T10:00:00Z")
        let (config, next) = try OutOfSampleRound28CLITests.folderInit(repository, "packages/grpc-js")
        #expect(!config.contains("tag-format = \"v{version}\""), "\(config)")
        #expect(next == "1.12.2", "\(config)")
        let plan = try relctl(["plan"], in: repository.url.appendingPathComponent("packages/grpc-js"))
        #expect(plan.stdout.contains("@grpc/grpc-js@1.12.2"), "\(plan)")
    }

    /// VictoriaMetrics heads its pending changes `## tip` in `docs/CHANGELOG.md` and labels each
    /// entry by kind (`* FEATURE: …`, `* BUGFIX: …`); its operator's commits are untyped. relctl
    /// read no pending section and proposed a patch for v0.72.0 (round 29). `tip` is a pending
    /// heading, and the labels give the level as subsections do.
    @Test(arguments: [("* FEATURE: [vmalert]: compress rule ConfigMaps.\n* BUGFIX: [vmoperator]: fix a deadlock.\n", "0.72.0"),
        ("* BUGFIX: [vmoperator]: fix a deadlock.\n* BUGFIX: [config-reloader]: reload files named `..`.\n", "0.71.1")])
    func aTipSectionWithLabelledEntriesGivesTheLevel(entries: String, expected: String) throws {
        let repository = try GitRepository()
        let released = "## [v0.71.0](https://example.com/releases/tag/v0.71.0)\n**Release date:** 12 June 2026\n\n* FEATURE: [vmagent]: pack overflow jobs.\n\n"
        try repository.commit("Initial import", files: ["go.mod": "module example.com/operator\n\ngo 1.24\n"], date: "2026-01-10T10:00:00Z")
        for (index, tag) in ["v0.69.0", "v0.70.0", "v0.71.0"].enumerated() {
            try repository.commit(
                "vmalert: compress rules (#\(index))", files: ["internal/a\(index).go": "package internal\n", "docs/CHANGELOG.md": "---\ntitle: CHANGELOG\n---\n\n## tip\n\n" + released],
                date: "2026-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.commit(
            "vmoperator: fix deadlock in the status collector",
            files: ["internal/status.go": "package internal\n", "docs/CHANGELOG.md": "---\ntitle: CHANGELOG\n---\n\n## tip\n\n" + entries + "\n" + released],
            date: "2026-06-20T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("changelog = \"docs/CHANGELOG.md\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(bump)")
    }

    /// A repository tagged `tags`, then one commit per entry of `commits` (subject and body), its
    /// relctl.toml `config` written by hand; `bump`'s answer.
    static func bumped(tags: [String], files: [String: String], commits: [String], config: String) throws -> RunResult {
        let repository = try GitRepository()
        for (index, tag) in tags.enumerated() {
            try repository.commit("Release \(tag)", files: ["src/r\(index).txt": "\(index)\n"], date: "2024-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", tag)
        }
        for (index, message) in commits.enumerated() {
            try repository.commit(
                message, files: (index == 0 ? files : [:]).merging(["src/c\(index).txt": "\(index)\n"]) { a, _ in a },
                date: "2024-09-1\(index)T10:00:00Z")
        }
        try repository.directory.write("relctl.toml", config)
        return try relctl(["bump"], in: repository.url)
    }

    /// jaraco's inflect heads NEWS.rst `v7.3.1` over a fix while its commits are titled "Add news
    /// fragment."; `untyped-adds` made it 7.4.0 (inflect, path; monolog's 3.3.1 likewise).
    /// vulture's CHANGELOG.md names `2.9.1` while its tags have two numbers (`v2.9`): the
    /// two-number rule made it 2.10.0. A heading naming the patch is the maintainers' word, even
    /// where it was written before the change (inflect's "Finalize" did not count as after it).
    @Test func aChangelogNamingThePatchOutranksUntypedAddsAndTwoNumbers() throws {
        let adds = try Self.bumped(
            tags: ["v7.2.0", "v7.3.0"], files: [
                "NEWS.md": "# v7.3.1\n\n- Fixed the plural of `cactus`.\n\n# v7.3.0\n\n- Added x.\n",
                "towncrier.toml": "[tool.towncrier]\ndirectory = \"newsfragments\"\n",
            ],
            commits: ["Update the changelog", "Add news fragment."],
            config: "[project]\nname = \"inflect\"\ntag-format = \"v{version}\"\n\n[versioning]\nfragments = \"towncrier\"\nchangelog = \"NEWS.md\"\nuntyped-adds = \"minor\"\n")
        #expect(adds.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "7.3.1", "\(adds)")
        let two = try Self.bumped(
            tags: ["v2.7", "v2.8", "v2.9"],
            files: ["CHANGELOG.md": "# 2.9.1 (2023-08-21)\n\n* Fix crash on empty files.\n\n# 2.9 (2023-08-20)\n\n* Add x.\n"],
            commits: ["Update the changelog", "Fix crash on empty files"],
            config: "[project]\nname = \"vulture\"\ntag-format = \"v{version}\"\n\n[versioning]\ncadence = \"minor\"\nchangelog = \"CHANGELOG.md\"\n")
        #expect(two.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.9.1", "\(two)")
    }

    /// monolog's `2.x` heads CHANGELOG.md `### 2.6.0 (2022-05-10)` while main has tagged 3.x:
    /// init read the changelog against 3.x, found nothing ahead and wrote none (monolog 2.x 4/10,
    /// PHP-Parser's `4.x` 6/10). On a maintenance line it is read against the line's latest release.
    @Test func aMaintenanceLinesChangelogIsReadAgainstItsOwnLatestRelease() throws {
        let repository = try GitRepository()
        let older = "### 2.1.0 (2022-01-10)\n\n  * Added y\n\n### 2.0.0 (2021-12-10)\n\n  * Initial\n"
        try repository.commit("Initial", files: ["composer.json": "{\"name\": \"acme/log\"}\n", "CHANGELOG.md": older], date: "2021-12-10T10:00:00Z")
        try repository.git("tag", "2.0.0")
        try repository.commit("Add y", files: ["src/y.php": "<?php\n"], date: "2022-01-10T10:00:00Z")
        try repository.git("tag", "2.1.0")
        try repository.git("branch", "2.x")
        try repository.commit("Drop PHP 7", files: ["src/z.php": "<?php\n"], date: "2022-02-10T10:00:00Z")
        try repository.git("tag", "3.0.0")
        try repository.git("checkout", "-q", "2.x")
        try repository.commit(
            "Add a handler", files: ["src/h.php": "<?php\n", "CHANGELOG.md": "### 2.2.0 (2022-05-10)\n\n  * Added a handler\n\n" + older],
            date: "2022-05-09T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.2.0", "\(bump)")
    }

    /// ccache's `4.13-maint` took master's `feat: Add install script …` with `git cherry-pick -x`
    /// and released 4.13.2; `plan` refused the line (exit 1). A change cherry-picked onto the line
    /// was backported to ship there: a patch inside the range, said so. A feat of the line's own
    /// is refused as before.
    @Test func aCherryPickedFeatStaysInsideTheMaintenanceRange() throws {
        let config = "[project]\nname = \"ccache\"\ntag-format = \"v{version}\"\n\n[[branch]]\nname = \"4.13-maint\"\nrange = \"4.13.x\"\n"
        func run(_ body: String) throws -> RunResult {
            let repository = try GitRepository()
            try repository.commit("Release", files: ["src/a.c": "a\n"], date: "2024-01-10T10:00:00Z")
            try repository.git("tag", "v4.13.0")
            try repository.git("checkout", "-q", "-b", "4.13-maint")
            try repository.commit("fix: a leak", files: ["src/b.c": "b\n"], date: "2024-02-10T10:00:00Z")
            try repository.git("tag", "v4.13.1")
            try repository.commit("feat: Add install script for binary Linux releases" + body, files: ["install.sh": "x\n"], date: "2024-03-10T10:00:00Z")
            try repository.directory.write("relctl.toml", config)
            return try relctl(["bump"], in: repository.url)
        }
        let picked = try run("\n\n(cherry picked from commit 334d86e8dea7a1b2c3d4e5f60718293a4b5c6d7e)")
        #expect(picked.status == 0, "\(picked)")
        #expect(picked.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4.13.2", "\(picked)")
        #expect(picked.stderr.contains("cherry-picked onto the line"), "\(picked)")
        let own = try run("")
        #expect(own.status == 1, "\(own)")
    }

    /// tesla marked its release `Release-As: 1.18.3` (release-please's footer) over a
    /// `feat(hackney)!:`; relctl proposed 2.0.0. The footer names the version.
    @Test func aReleaseAsFooterNamesTheVersion() throws {
        let bump = try Self.bumped(
            tags: ["v1.18.1", "v1.18.2"], files: [:],
            commits: ["feat(hackney)!: support hackney 4.x (#880)", "chore: release 1.18.3\n\nRelease-As: 1.18.3"],
            config: "[project]\nname = \"tesla\"\ntag-format = \"v{version}\"\n")
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1.18.3", "\(bump)")
        #expect(bump.stderr.contains("says `Release-As: 1.18.3`"), "\(bump)")
        // A footer naming a version already released or below says nothing.
        let old = try Self.bumped(
            tags: ["v1.18.1", "v1.18.2"], files: [:], commits: ["fix: a\n\nRelease-As: 1.18.2"],
            config: "[project]\nname = \"tesla\"\ntag-format = \"v{version}\"\n")
        #expect(old.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1.18.3", "\(old)")
    }

    /// req's mix.exs holds `@version "0.7.0-dev"` and tmux's configure.ac `AC_INIT([tmux],
    /// 3.0-rc3)`: init listed neither, and req's 0.7.0 was proposed as 0.6.4. Each is a regex entry.
    @Test(arguments: [
        ("mix.exs", "defmodule Req.MixProject do\n  use Mix.Project\n\n  @version \"0.7.0-dev\"\n\n  def project do\n    [app: :req, version: @version]\n  end\nend\n", "0.7.0"),
        ("configure.ac", "AC_INIT([tmux], 2.2.0-rc1)\nAM_INIT_AUTOMAKE([foreign])\n", "2.2.0-rc1"),
    ])
    func aManifestOfElixirOrAutoconfIsListed(file: String, text: String, expected: String) throws {
        let repository = try GitRepository()
        for (index, tag) in ["v0.6.2", "v2.1.0"].enumerated() where (file == "mix.exs") == (index == 0) {
            try repository.commit("Release \(tag)", files: ["lib/a.ex": "\(index)\n"], date: "2024-01-10T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.commit("Fix a crash", files: [file: text, "lib/b.ex": "x\n"], date: "2024-03-10T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("path = \"\(file)\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(bump)")
    }

    /// VictoriaMetrics' operator wrote `## [v0.69.0](…)` and `**Release date:** 22 April 2026`
    /// after tagging `v0.69.0-rc1`; async-timeout `4.0.0 (2021-11-01)` after `v4.0.0a3`. relctl
    /// read the final's heading as the prerelease's own notes and proposed another candidate. A
    /// final's heading dated as released ends the prerelease; an undated one (`## 0.69.0` while the
    /// rc ships) still says nothing.
    @Test(arguments: [("**Release date:** 22 April 2026\n\n", "0.69.0"), ("", "0.69.0-rc.2")])
    func aDatedFinalHeadingEndsItsPrerelease(dateLine: String, expected: String) throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["go.mod": "module example.com/operator\n"], date: "2026-01-10T10:00:00Z")
        try repository.git("tag", "v0.68.0")
        try repository.commit("vmalert: compress rules", files: ["a.go": "package a\n"], date: "2026-02-10T10:00:00Z")
        try repository.git("tag", "v0.69.0-rc.1")
        let changelog = "## tip\n\n## [v0.69.0](https://example.com/releases/tag/v0.69.0)\n" + dateLine
            + "* FEATURE: [vmalert]: compress rules.\n\n## [v0.68.0](https://example.com/releases/tag/v0.68.0)\n\n* BUGFIX: x.\n"
        try repository.commit("docs: release notes", files: ["docs/CHANGELOG.md": changelog, "b.go": "package a\n"], date: "2026-04-22T10:00:00Z")
        try repository.directory.write(
            "relctl.toml", "[project]\nname = \"operator\"\ntag-format = \"v{version}\"\n\n[versioning]\nchangelog = \"docs/CHANGELOG.md\"\n")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(bump)")
    }

    /// googleapis' python-crc32c cuts a branch for each candidate, `release-candidate-v1.8.0rc2`,
    /// and tags it there: relctl read the name as the 1.8.x line and proposed the final 1.8.0
    /// (6 points of round 30). A branch named for a prerelease makes that prerelease, or the next
    /// candidate of its final when it is tagged already.
    @Test(arguments: [
        ("release-candidate-v1.8.0rc2", [String](), "1.8.0-rc.2"),
        ("release-candidate-v1.8.0rc1", ["v1.8.0rc1"], "1.8.0-rc.2"),
        ("release/1.8.0", [String](), "1.7.2"),
    ])
    func aBranchNamedForAPrereleaseMakesIt(branch: String, tagged: [String], expected: String) throws {
        let repository = try GitRepository()
        try repository.commit(
            "Release", files: ["src/a.py": "a\n", "pyproject.toml": "[project]\nname = \"google-crc32c\"\nversion = \"1.7.1\"\n"],
            date: "2025-01-10T10:00:00Z")
        try repository.git("tag", "v1.7.1")
        for tag in tagged {
            try repository.commit("chore: release candidate", files: ["src/b.py": "b\n"], date: "2025-02-10T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.git("checkout", "-q", "-b", branch)
        try repository.commit("fix: a leak", files: ["src/c.py": "c\n"], date: "2025-03-10T10:00:00Z")
        try repository.directory.write(
            "relctl.toml", "[project]\nname = \"google-crc32c\"\ntag-format = \"v{version}\"\n\n[[version]]\npath = \"pyproject.toml\"\n")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(bump)")
    }

    /// k8up's Go module `github.com/k8up-io/k8up/v2` is released by 40 `v2.x` tags; its chart in
    /// `charts/k8up` by `k8up-4.8.7`-like tags, which init took for the module's (named after the
    /// project): 0 of 10 (round 32). The go tool resolves a module's top by `vX.Y.Z` alone.
    @Test func aGoModulesTopIsReleasedByItsVTags() throws {
        let repository = try GitRepository()
        try repository.commit(
            "Initial", files: ["go.mod": "module github.com/acme/op/v2\n\ngo 1.24\n", "main.go": "package main\n"],
            date: "2024-01-10T10:00:00Z")
        for (index, tag) in ["v2.0.0", "op-4.8.5", "v2.1.0", "op-4.8.6", "op-4.8.7", "v2.2.0", "op-4.8.8", "op-4.8.9"].enumerated() {
            try repository.commit(
                "Update (#\(index))", files: ["charts/op/Chart.yaml": "apiVersion: v2\nname: op\nversion: \(tag.hasPrefix("op-") ? String(tag.dropFirst(3)) : "4.8.4")\n", "x\(index).go": "package main\n"],
                date: "2024-0\(index + 1)-12T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.commit("fix: retry the backup", files: ["backup.go": "package main\n"], date: "2024-10-10T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("tag-format = \"v{version}\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2.2.1", "\(bump)")
    }

    /// opentelemetry-ruby's `api/CHANGELOG.md` releases are tagged both `opentelemetry-api/v1.5.0`
    /// and `opentelemetry-sdk/v1.5.0` (the gems release together): init in `api/` kept neither and
    /// proposed 0.1.0 (api 4/10, round 32). The series naming the folder as its last word is its own.
    @Test func theSeriesNamingTheFolderAsItsLastWordIsItsOwn() throws {
        let changes = "# Release History: opentelemetry-api\n\n### v1.5.0 / 2025-03-10\n\n* ADDED: x\n\n### v1.4.0 / 2025-02-10\n\n* ADDED: y\n\n### v1.3.0 / 2025-01-10\n\n* FIXED: z\n"
        let repository = try OutOfSampleRound28CLITests.memberSeries(
            folder: "api", files: ["CHANGELOG.md": changes, "opentelemetry-api.gemspec": "Gem::Specification.new do |spec|\n  spec.name = 'opentelemetry-api'\nend\n"],
            tags: ["opentelemetry-api/v1.3.0", "opentelemetry-api/v1.4.0", "opentelemetry-api/v1.5.0"])
        for version in ["1.3.0", "1.4.0", "1.5.0"] {
            try repository.git("tag", "opentelemetry-sdk/v\(version)", "opentelemetry-api/v\(version)")
        }
        let (config, next) = try OutOfSampleRound28CLITests.folderInit(repository, "api")
        #expect(config.contains("tag-format = \"opentelemetry-api/v{version}\""), "\(config)")
        #expect(next == "1.5.1", "\(config)")
    }

    /// Reloader tags its application `v1.4.15` on "Bump version" commits past the chart's and
    /// never merges them back; its chart's release on main then moves `appVersion`. The chart's
    /// patch was due but relctl counted only merged application tags (4 points of round 32).
    @Test func anApplicationTagOnTopOfTheTargetPutsItsChartBehind() throws {
        let repository = try OutOfSampleRound28CLITests.applicationWithChart(appTags: ["v0.30.0", "v0.31.0", "v0.32.0"])
        try repository.git("checkout", "-q", "-b", "bump-0.32.1")
        try repository.commit("Bump version to 0.32.1", files: ["VERSION": "0.32.1\n"], date: "2025-03-20T10:00:00Z")
        try repository.git("tag", "v0.32.1")
        try repository.git("checkout", "-q", "-")
        let row = try OutOfSampleRound28CLITests.chartPlan(repository)
        #expect(row["next"] as? String == "2.17.6", "\(row)")
        #expect(row["reason"] as? String == "dependency", "\(row)")
    }

    /// jekyll keeps `History.markdown`, its pending changes under `## HEAD` and their kinds as
    /// `### Minor Enhancements` / `### Bug Fixes`: init found no changelog and proposed patches
    /// for its 4.2.0 and 3.9.0 (round 33).
    @Test func jekyllsHistoryMarkdownAndItsHeadSection() throws {
        let released = "## 4.1.1 / 2020-06-24\n\n### Bug Fixes\n\n  * Fix the watcher\n\n## 4.1.0 / 2020-05-27\n\n### Minor Enhancements\n\n  * Add a filter\n"
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["jekyll.gemspec": "Gem::Specification.new do |s|\n  s.name = \"jekyll\"\nend\n"], date: "2020-05-01T10:00:00Z")
        for (index, tag) in ["v4.1.0", "v4.1.1"].enumerated() {
            try repository.commit("Release :gem: \(tag)", files: ["History.markdown": released, "lib/a\(index).rb": "x\n"], date: "2020-06-0\(index + 1)T10:00:00Z")
            try repository.git("tag", tag)
        }
        try repository.commit(
            "Add the slugify mode option", files: ["History.markdown": "## HEAD\n\n### Minor Enhancements\n\n  * Add the slugify mode option\n\n" + released, "lib/s.rb": "x\n"],
            date: "2020-07-01T10:00:00Z")
        let config = try VersionIntentCLITests.initialise(repository)
        #expect(config.contains("changelog = \"History.markdown\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4.2.0", "\(bump)")
    }

    /// plate links its packages in changesets (`"linked": [["platejs", "@platejs/*", …]]`):
    /// `platejs`, released only because `@platejs/core` was, took the group's highest version
    /// (53.1.2), where relctl proposed its own next patch, 53.0.8 (4 points of round 33).
    @Test func aLinkedPackageReleasedForItsDependencyTakesTheGroupsVersion() throws {
        let repository = try GitRepository()
        func manifest(_ name: String, _ version: String, dependsOn: String? = nil) -> String {
            let dependencies = dependsOn.map { ",\n  \"dependencies\": {\"\($0)\": \"workspace:^\"}" } ?? ""
            return "{\n  \"name\": \"\(name)\",\n  \"version\": \"\(version)\"\(dependencies)\n}\n"
        }
        try repository.commit(
            "chore: release",
            files: [
                "package.json": "{\n  \"name\": \"root\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
                ".changeset/config.json": "{\"linked\": [[\"acme\", \"@acme/*\"]], \"updateInternalDependencies\": \"patch\"}\n",
                "packages/core/package.json": manifest("@acme/core", "1.1.1"),
                "packages/plate/package.json": manifest("acme", "1.0.7", dependsOn: "@acme/core"),
            ], date: "2025-01-10T10:00:00Z")
        for tag in ["@acme/core@1.1.0", "@acme/core@1.1.1", "acme@1.0.6", "acme@1.0.7"] { try repository.git("tag", tag) }
        try repository.commit(
            "fix(core): keep the selection", files: ["packages/core/src/a.ts": "x\n", ".changeset/calm-fox.md": "---\n\"@acme/core\": patch\n---\n\nKeep the selection.\n"],
            date: "2025-02-10T10:00:00Z")
        _ = try VersionIntentCLITests.initialise(repository)
        let result = try relctl(["plan", "--json"], in: repository.url)
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let core = rows.first { $0["tag"] as? String == "@acme/core@1.1.2" }
        let plate = rows.first { ($0["tag"] as? String)?.hasPrefix("acme@") == true }
        #expect(core != nil, "\(result)")
        #expect(plate?["next"] as? String == "1.1.2", "\(rows)")
        #expect(plate?["reason"] as? String == "dependency", "\(rows)")
    }
}
