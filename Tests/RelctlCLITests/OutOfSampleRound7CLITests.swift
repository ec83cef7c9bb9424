import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What the seventh out-of-sample round of the back-test found (session 64: jquery, dotenv, …),
/// each on a generated repository of the shape that was read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound7CLITests {
    static func field(_ json: String, _ key: String) throws -> Any? { try BacktestFindingsCLITests.field(json, key) }

    @discardableResult
    static func commit(_ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]) throws -> String {
        try BacktestFindingsCLITests.commit(repo, message, day: day, files: files)
    }

    /// jquery tags each release on a commit adding the built files, made beside the branch from
    /// its tip: on `3.x-stable` git counts no release as merged, so init wrote no `[[branch]]` and
    /// plan proposed 4.0.1 from main's 4.0.0.
    @Test func aReleaseTaggedBesideTheMaintenanceBranchMakesItsLine() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] { ["package.json": "{\"name\": \"jquery\", \"version\": \"\(version)\"}\n"] }
        try Self.commit(repo, "Release: 3.7.1 source", day: 1, files: manifest("3.7.1"))
        try repo.git("branch", "3.x-stable")
        // The release commit: the built file, beside main and the branch.
        try repo.git("checkout", "-q", "--detach")
        try Self.commit(repo, "3.7.1", day: 2, files: ["dist/jquery.js": "/* 3.7.1 */\n"])
        try repo.git("tag", "3.7.1")
        try repo.git("checkout", "-q", "main")
        try Self.commit(repo, "Core: drop IE", day: 3, files: manifest("4.0.0"))
        try repo.git("checkout", "-q", "--detach")
        try Self.commit(repo, "4.0.0", day: 4, files: ["dist/jquery.js": "/* 4.0.0 */\n"])
        try repo.git("tag", "4.0.0")
        try repo.git("checkout", "-q", "3.x-stable")
        try Self.commit(repo, "Ajax: fix a header", day: 5, files: ["src/ajax.js": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("[[branch]]\nname = \"3.x-stable\"\nrange = \"3.x\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "3.7.2", "\(bump)")
    }

    /// dotenv's CHANGELOG.md heads one 2019 major `# [8.0.0]` (conventional-changelog's style)
    /// among `##` releases: init wrote no `changelog`, and its `## [Unreleased]` with `### Removed`
    /// entries gave nothing (plan 17.4.3 where the section calls for 18.0.0).
    @Test func anOldFirstLevelMajorHeadingDoesNotHideTheUnreleasedSection() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "Release 17.4.2", day: 1, files: ["package.json": "{\"name\": \"dotenv\", \"version\": \"17.4.2\"}\n"])
        try repo.git("tag", "v17.4.2")
        let changelog = """
            # Changelog

            ## [Unreleased](https://github.com/motdotla/dotenv/compare/v17.4.2...master)

            ### Removed

            * The `debug` option.

            ## [17.4.2](https://github.com/motdotla/dotenv/compare/v17.4.1...v17.4.2)

            ### Changed

            * Docs.

            # [8.0.0](https://github.com/motdotla/dotenv/compare/v7.0.0...v8.0.0) (2019-05-02)

            ### Changed

            * Drop node 6.

            """
        try Self.commit(repo, "Remove debug", day: 2, files: ["CHANGELOG.md": changelog, "lib/main.js": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("changelog = \"CHANGELOG.md\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "18.0.0", "\(bump)")
    }

    /// fasthttp's lightweight `v20180529` of 2017 read as 20180529.0.0 in another spelling, and
    /// being on the branch it became the latest release: plan proposed `v20180529.1.0` where the
    /// project tags `v1.N.0`. A moving major tag names a line, never the latest release.
    @Test func aOneNumberTagIsNeverTheLatestRelease() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module github.com/valyala/fasthttp\n\ngo 1.22\n")
        try Self.commit(repo, "initial", day: 1)
        try repo.git("tag", "v20180529")
        try Self.commit(repo, "feat: client timeouts", day: 2, files: ["client.go": "package fasthttp\n"])
        try repo.git("tag", "v1.73.0")
        try Self.commit(repo, "fix: header parsing", day: 3, files: ["header.go": "package fasthttp\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "1.73.1", "\(bump)")
    }

    /// koanf's `providers/vault` at 0.2.2 changed its module path to `…/vault/v2` and released
    /// v2.0.0: bump proposed 0.3.0, which the go tool never resolves for a `/v2` path.
    @Test func aZeroMajorModuleMovedToAV2PathReleasesTwoZeroZero() throws {
        let repo = try GitRepository()
        try Self.commit(repo, "initial", day: 1, files: ["go.mod": "module github.com/knadh/koanf/providers/vault\n\ngo 1.22\n"])
        try repo.git("tag", "v0.2.2")
        try Self.commit(repo, "feat: Bump vault provider to v2", day: 2, files: ["go.mod": "module github.com/knadh/koanf/providers/vault/v2\n\ngo 1.22\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "2.0.0", "\(bump)")
        #expect(bump.stderr.contains("names major 2"), "\(bump)")
    }

    /// mongo-go-driver's release commits bump `var Driver = "2.8.0"` in `version/version.go`: init
    /// listed no version file, so `bump --write` left it behind. In a `version/` package any name
    /// holding the latest release is the project's version.
    @Test func aGoVersionPackagesConstantOfAnyNameIsListed() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "BUMP v2.8.0", day: 1,
            files: [
                "go.mod": "module go.mongodb.org/mongo-driver/v2\n\ngo 1.22\n",
                "version/version.go": "// Package version defines the Go Driver version.\npackage version\n\n// Driver is the current version of the driver.\nvar Driver = \"2.8.0\"\n",
            ])
        try repo.git("tag", "v2.8.0")
        try Self.commit(repo, "GODRIVER-1: fix a pool leak", day: 2, files: ["x/pool.go": "package x\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"version/version.go\""), "\(config)")
        #expect(try relctl(["bump", "--write"], in: repo.url).status == 0)
        #expect(try repo.directory.read("version/version.go").contains("var Driver = \"2.8.1\""))
    }

    /// coverage.py: setup.py says `name="coverage"` in a folder called `coveragepy`, and its
    /// version is a tuple relctl does not read: init named the project after the folder and
    /// suggested a Swift file as the example version location.
    @Test func aSetupScriptsNameAndAPythonExample() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "Release 7.11.3", day: 1,
            files: [
                "setup.py": "from setuptools import setup\nsetup(\n    name=\"coverage\",\n    version=get_version(),\n)\n",
                "coverage/version.py": "version_info = (7, 11, 3, \"final\", 0)\n",
            ])
        try repo.git("tag", "7.11.3")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("name = \"coverage\""), "\(config)")
        #expect(config.contains("# path = \"coverage/__init__.py\"") && !config.contains("Version.swift"), "\(config)")
    }

    /// external-secrets' chart holds `version: 2.9.0` and `appVersion: "v2.9.0"`: init in the chart
    /// folder took the application's `v2.9.0` series (0 of 10), where the chart is tagged
    /// `helm-chart-2.9.0`.
    @Test func aChartAtItsAppsVersionKeepsItsOwnSeries() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module github.com/external-secrets/external-secrets\n\ngo 1.22\n")
        for (day, version) in ["2.8.0", "2.9.0"].enumerated() {
            try Self.commit(
                repo, "chore: release v\(version)", day: day + 1,
                files: ["deploy/charts/external-secrets/Chart.yaml": "apiVersion: v2\nname: external-secrets\nversion: \(version)\nappVersion: \"v\(version)\"\n"])
            try repo.git("tag", "v\(version)")
            try repo.git("tag", "helm-chart-\(version)")
        }
        try Self.commit(repo, "fix(charts): a webhook port", day: 4, files: ["deploy/charts/external-secrets/values.yaml": "a: 1\n"])
        let chart = repo.url.appendingPathComponent("deploy/charts/external-secrets")
        #expect(try relctl(["init", "--quiet"], in: chart).status == 0)
        let config = try String(contentsOf: chart.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("tag-format = \"helm-chart-{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: chart)
        #expect(try Self.field(bump.stdout, "tag") as? String == "helm-chart-2.9.1", "\(bump)")
    }

    /// external-secrets' root go.mod replaces 61 untagged nested modules with their folders
    /// (`=> ./providers/v1/keepersecurity`): init excluded them, and the `feat` that touched only
    /// them made no minor (2.5.1 where the project released 2.6.0).
    @Test func aNestedModuleTheRootReplacesLocallyIsTheRootsCode() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "go.mod",
            "module github.com/external-secrets/external-secrets\n\ngo 1.22\n\nreplace (\n\tgithub.com/external-secrets/external-secrets/providers/v1/keeper => ./providers/v1/keeper\n)\n")
        try repo.directory.write("providers/v1/keeper/go.mod", "module github.com/external-secrets/external-secrets/providers/v1/keeper\n")
        try repo.directory.write("e2e/go.mod", "module github.com/external-secrets/external-secrets-e2e\n")
        try Self.commit(repo, "chore: start", day: 1)
        try repo.git("tag", "v2.5.0")
        try Self.commit(repo, "feat(keeper): a metric", day: 2, files: ["providers/v1/keeper/m.go": "package keeper\n"])
        try Self.commit(repo, "feat(e2e): a suite", day: 3, files: ["e2e/s.go": "package e2e\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("exclude = [\"e2e/**\"]"), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(bump.stdout, "next") as? String == "2.6.0", "\(bump)")
        #expect(try Self.field(bump.stdout, "commits") as? Int == 1, "\(bump)")
    }

    /// openai-python keeps a private `package.json` without a version for its tools (pyright):
    /// init named the project `openai-python-tooling` instead of pyproject.toml's `openai`.
    @Test func aPrivateToolingPackageJSONDoesNotNameThePythonProject() throws {
        let repo = try GitRepository()
        try Self.commit(
            repo, "release: 2.51.0", day: 1,
            files: [
                "pyproject.toml": "[project]\nname = \"openai\"\nversion = \"2.51.0\"\n",
                "package.json": "{\"name\": \"openai-python-tooling\", \"private\": true, \"devDependencies\": {\"pyright\": \"1\"}}\n",
            ])
        try repo.git("tag", "v2.51.0")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("name = \"openai\""), "\(config)")
    }

    /// rust-url's `url` crate holds 2.5.7 after the tag v2.5.5 (2.5.6 was published untagged):
    /// no member took the bare series, and plan proposed a new `url-v2.5.7` series.
    @Test func aMemberPastAnUntaggedPatchKeepsTheBareSeries() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String { "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n" }
        try Self.commit(
            repo, "Release", day: 1,
            files: ["Cargo.toml": "[workspace]\nmembers = [\"url\", \"idna\"]\n", "url/Cargo.toml": crate("url", "2.5.5"), "idna/Cargo.toml": crate("idna", "1.0.3")])
        try repo.git("tag", "v2.5.5")
        try repo.git("tag", "idna-v1.0.3")
        try Self.commit(repo, "Publish url 2.5.6", day: 2, files: ["url/Cargo.toml": crate("url", "2.5.6")])
        try Self.commit(repo, "Bump url to 2.5.7", day: 3, files: ["url/Cargo.toml": crate("url", "2.5.7")])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("url = \"v{version}\""), "\(config)")
        let plan = try relctl(["plan"], in: repo.url)
        #expect(plan.stdout.contains("v2.5.7") && !plan.stdout.contains("url-v2.5.7"), "\(plan)")
    }

    /// graphiql's language server: `changeset version` wrote 2.14.3 (manifest and changelog), the
    /// tag was never made, and a new patch changeset is pending: bump proposed 2.14.3 again where
    /// changesets makes 2.14.4. Pending changesets are newer than the manifest's version.
    @Test func pendingChangesetsApplyOnTopOfAnUntaggedVersionedManifest() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["package.json": "{\"name\": \"graphql-language-service-server\", \"version\": \"\(version)\"}\n"]
        }
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"graphql-language-service-server\"\ntag-format = \"{project}@{version}\"\n\n[[version]]\npath = \"package.json\"\n\n[versioning]\nfragments = \"changesets\"\n")
        try repo.directory.write(".changeset/config.json", "{}\n")
        try Self.commit(repo, "Version Packages", day: 1, files: manifest("2.14.2"))
        try repo.git("tag", "graphql-language-service-server@2.14.2")
        try Self.commit(repo, "Version Packages", day: 2, files: manifest("2.14.3"))
        try Self.commit(
            repo, "fix: a hover crash", day: 3,
            files: [".changeset/wild-paws-smash.md": "---\n\"graphql-language-service-server\": patch\n---\n\nHover.\n"])
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "2.14.4", "\(bump)")
        // Once `changeset version` consumed it, the manifest's version is the coming release.
        try repo.git("rm", "-q", ".changeset/wild-paws-smash.md")
        try Self.commit(repo, "Version Packages", day: 4, files: manifest("2.14.4"))
        let versioned = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(versioned.stdout, "next") as? String == "2.14.4", "\(versioned)")
    }

    /// GRDB's `GRDB6` line: init wrote `cadence = "minor"` (v6.24.2 to v6.29.0) and `changelog`,
    /// whose newest heading named 6.29.1, the version its podspec held too: bump proposed 6.30.0.
    /// A heading naming the next version is not overridden by a habit.
    @Test func aChangelogNamingTheNextVersionOutweighsTheCadence() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"GRDB\"\n\n[versioning]\nchangelog = \"CHANGELOG.md\"\ncadence = \"minor\"\n")
        try Self.commit(repo, "v6.29.0", day: 1, files: ["CHANGELOG.md": "# Release Notes\n\n## 6.29.0\n\n- New: things\n"])
        try repo.git("tag", "v6.29.0")
        try Self.commit(
            repo, "Fix a crash in ValueObservation", day: 2,
            files: ["CHANGELOG.md": "# Release Notes\n\n## 6.29.1\n\n- Fixed: a crash\n\n## 6.29.0\n\n- New: things\n"])
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "6.29.1", "\(bump)")
        // Without the heading the habit holds.
        try Self.commit(repo, "Release 6.29.1", day: 3)
        try repo.git("tag", "v6.29.1")
        try Self.commit(repo, "Fix another crash", day: 4, files: ["a.swift": "let a = 1\n"])
        let habit = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(habit.stdout, "next") as? String == "6.30.0", "\(habit)")
    }

    /// emotion links react, styled and cache in `.changeset/config.json`: react at 11.10.6 with a
    /// patch changeset, beside cache's tag 11.10.7, releases 11.10.8 (the group's highest version
    /// raised by its highest changeset); bump proposed 11.10.7, cache's version.
    @Test func changesetsLinkedGroupsShareTheirHighestVersion() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"react\"\ntag-format = \"@emotion/react@{version}\"\n\n[[version]]\npath = \"package.json\"\n\n[versioning]\nfragments = \"changesets\"\n")
        try repo.directory.write(".changeset/config.json", "{\"linked\": [[\"@emotion/react\", \"@emotion/styled\", \"@emotion/cache\"]]}\n")
        try Self.commit(repo, "Version Packages", day: 1, files: ["package.json": "{\"name\": \"@emotion/react\", \"version\": \"11.10.6\"}\n"])
        try repo.git("tag", "@emotion/react@11.10.6")
        try repo.git("tag", "@emotion/cache@11.10.7")
        try repo.git("tag", "@emotion/unlinked@12.0.0")
        try Self.commit(
            repo, "Fix a hydration mismatch", day: 2,
            files: [".changeset/odd-owls.md": "---\n\"@emotion/react\": patch\n---\n\nHydration.\n"])
        let bump = try relctl(["bump", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(try Self.field(bump.stdout, "next") as? String == "11.10.8", "\(bump)")
        // styled going minor in the same release takes react with it.
        try Self.commit(
            repo, "Add a prop", day: 3, files: [".changeset/big-cats.md": "---\n\"@emotion/styled\": minor\n---\n\nProp.\n"])
        let minor = try relctl(["bump", "--json"], in: repo.url)
        #expect(try Self.field(minor.stdout, "next") as? String == "11.11.0", "\(minor)")
    }

    /// GRDB's release commits bump `Support/Info.plist`'s `CFBundleShortVersionString` beside the
    /// podspec: init listed the podspec only, so `bump --write` left the plist behind.
    @Test func anInfoPlistHoldingTheVersionIsListed() throws {
        let repo = try GitRepository()
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>CFBundleShortVersionString</key>
            \t<string>7.8.0</string>
            </dict>
            </plist>

            """
        try Self.commit(
            repo, "v7.8.0", day: 1,
            files: [
                "GRDB.swift.podspec": "Pod::Spec.new do |s|\n  s.name = 'GRDB.swift'\n  s.version = '7.8.0'\nend\n",
                "Support/Info.plist": plist, "Package.swift": "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"GRDB\", products: [.library(name: \"GRDB\", targets: [\"GRDB\"])], targets: [.target(name: \"GRDB\")])\n",
            ])
        try repo.git("tag", "v7.8.0")
        try Self.commit(repo, "Fix a crash", day: 2, files: ["GRDB/A.swift": "let a = 1\n"])
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("path = \"Support/Info.plist\""), "\(config)")
        #expect(try relctl(["bump", "--write"], in: repo.url).status == 0)
        #expect(try repo.directory.read("Support/Info.plist").contains("<string>7.8.1</string>"))
    }

    /// parking_lot tags its three crates on one commit (`0.12.0`, `core-0.9.0`, `lock_api-0.4.6`);
    /// in `core`, whose Cargo.toml holds 0.9.0 (a version the bare series released in 2019), init
    /// chose the bare series, and `validate-tag 0.12.1` refused the crate's own manifest.
    @Test func aMemberFolderTakesTheNamedSeriesNamingItsVersion() throws {
        let repo = try GitRepository()
        func crate(_ name: String, _ version: String) -> String { "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n" }
        try Self.commit(repo, "0.9.0", day: 1, files: ["Cargo.toml": crate("parking_lot", "0.9.0")])
        try repo.git("tag", "0.9.0")
        try Self.commit(
            repo, "Release", day: 2,
            files: ["Cargo.toml": crate("parking_lot", "0.12.0") + "\n[workspace]\nmembers = [\"core\"]\n", "core/Cargo.toml": crate("parking_lot_core", "0.9.0")])
        try repo.git("tag", "0.12.0")
        try repo.git("tag", "core-0.9.0")
        try Self.commit(repo, "Fix a spin loop", day: 3, files: ["core/src/lib.rs": "fn a() {}\n"])
        let core = repo.url.appendingPathComponent("core")
        #expect(try relctl(["init", "--quiet"], in: core).status == 0)
        let config = try String(contentsOf: core.appendingPathComponent("relctl.toml"), encoding: .utf8)
        #expect(config.contains("tag-format = \"core-{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: core)
        #expect(try Self.field(bump.stdout, "tag") as? String == "core-0.9.1", "\(bump)")
    }

    /// graphiql's examples are private and in changesets' `ignore`, with stray `@0.0.0` tags;
    /// emotion's private packages were tagged by lerna in 2019 and `privatePackages` is false:
    /// plan proposed releases for both, which `release --pending` would have tagged.
    @Test func whatChangesetsNeverReleasesGetsNoRelease() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"graphiql\"\n\n[workspace]\nmembers = [\"packages/*\", \"examples/*\"]\ntag-format = \"{member}@{version}\"\n\n[versioning]\nfragments = \"changesets\"\n")
        try repo.directory.write(
            ".changeset/config.json", "{\"ignore\": [\"example-*\"], \"privatePackages\": {\"version\": true, \"tag\": false}}\n")
        try Self.commit(
            repo, "Version Packages", day: 1,
            files: [
                "packages/graphiql/package.json": "{\"name\": \"graphiql\", \"version\": \"5.2.0\"}\n",
                "examples/webpack/package.json": "{\"name\": \"example-graphiql-webpack\", \"version\": \"1.1.0\", \"private\": true}\n",
                "packages/site/package.json": "{\"name\": \"site\", \"version\": \"9.2.14\", \"private\": true}\n",
            ])
        for tag in ["graphiql@5.2.0", "example-graphiql-webpack@1.1.0", "site@9.2.14"] { try repo.git("tag", tag) }
        try Self.commit(
            repo, "feat: everywhere", day: 2,
            files: ["packages/graphiql/a.ts": "a\n", "examples/webpack/a.ts": "a\n", "packages/site/a.ts": "a\n"])
        let plan = try relctl(["plan"], in: repo.url)
        #expect(plan.status == 0, "\(plan)")
        let rows = plan.stdout.split(separator: "\n").map(String.init)
        #expect(rows.contains { $0.hasPrefix("graphiql ") && $0.contains("5.3.0") }, "\(plan)")
        #expect(rows.contains { $0.hasPrefix("example-graphiql-webpack ") && $0.contains("unpublished") }, "\(plan)")
        #expect(rows.contains { $0.hasPrefix("site ") && $0.contains("unpublished") }, "\(plan)")
    }

    /// env_logger lists one crate, `crates/env_filter`, with `env_filter-v` tags: init wrote a
    /// single project, whose notes held the member's commits, and never proposed env_filter.
    @Test func aSingleCargoMemberWithTagsMakesAWorkspace() throws {
        func crate(_ name: String, _ version: String, _ extra: String = "") -> String {
            "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n\(extra)"
        }
        let single = try GitRepository()
        try Self.commit(
            single, "Release", day: 1,
            files: [
                "Cargo.toml": crate("env_logger", "0.11.11", "\n[workspace]\nmembers = [\"crates/*\"]\n"),
                "crates/env_filter/Cargo.toml": crate("env_filter", "2.0.0"),
            ])
        for tag in ["v0.11.10", "v0.11.11", "env_filter-v1.0.0", "env_filter-v1.0.1", "env_filter-v2.0.0"] { try single.git("tag", tag) }
        try Self.commit(single, "filter: no_std", day: 2, files: ["crates/env_filter/src/lib.rs": "a\n"])
        #expect(try relctl(["init", "--quiet"], in: single.url).status == 0)
        let plan2 = try relctl(["plan"], in: single.url)
        #expect(plan2.stdout.contains("env_filter-v2.0.1"), "\(plan2)")
        let rootRow = plan2.stdout.split(separator: "\n").first { $0.hasPrefix("env_logger ") }.map(String.init) ?? ""
        #expect(rootRow.contains(" none "), "the root has no change of its own: \(plan2)")
    }
}
