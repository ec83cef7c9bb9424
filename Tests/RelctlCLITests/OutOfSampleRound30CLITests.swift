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
}
