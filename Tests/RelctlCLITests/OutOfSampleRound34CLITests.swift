import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What session 83's rounds left and session 84's rounds 34 and 35 found: each on a generated
/// repository of the shape read wrong.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct OutOfSampleRound34CLITests {
    /// knope: a Cargo workspace whose packages knope.toml names (`[packages.versioning]`,
    /// versioned by `crates/knope-versioning/Cargo.toml`), each change a `.changeset/*.md` file
    /// keyed by those names (`versioning: major`, `knope: note`), commits untyped. init wrote no
    /// fragments, and relctl proposed a patch for every release: 11 of 20 points (round 33).
    /// Below 1.0.0 knope makes a major a minor and a minor a patch; a custom type (`note`) is a
    /// patch, and a change file alone releases its package.
    @Test func knopeChangeFilesGiveEachPackagesLevel() throws {
        let repository = try GitRepository()
        let knope = """
            [packages.versioning]
            versioned_files = ["crates/knope-versioning/Cargo.toml", "Cargo.lock", { path = "Cargo.toml", dependency = "knope-versioning" }]
            changelog = "crates/knope-versioning/CHANGELOG.md"
            extra_changelog_sections = [{ name = "Notes", types = ["note"] }]

            [packages.knope]
            versioned_files = ["crates/knope/Cargo.toml", { path = "README.md", regex = 'version:\\s+(?<version>\\d+\\.\\d+\\.\\d+)' }]
            changelog = "CHANGELOG.md"

            """
        func files(_ tool: String, _ library: String) -> [String: String] {
            [
                "knope.toml": knope,
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n",
                "crates/knope/Cargo.toml": "[package]\nname = \"knope\"\nversion = \"\(tool)\"\nedition = \"2021\"\n",
                "crates/knope/src/main.rs": "fn main() {}\n",
                "crates/knope-versioning/Cargo.toml":
                    "[package]\nname = \"knope-versioning\"\nversion = \"\(library)\"\nedition = \"2021\"\n",
                "crates/knope-versioning/src/lib.rs": "\n",
                ".changeset/.gitkeep": "",
            ]
        }
        for (index, (tool, library)) in [("0.21.0", "0.4.0"), ("0.21.1", "0.4.1"), ("0.21.2", "0.4.2")].enumerated() {
            try repository.commit("Release packages (#\(index))", files: files(tool, library), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "knope/v\(tool)")
            try repository.git("tag", "versioning/v\(library)")
        }
        try repository.commit(
            "Box the inconsistent versions (#10)",
            files: [
                "crates/knope-versioning/src/lib.rs": "// boxed\n",
                ".changeset/box_versions.md": "---\nversioning: major\n---\n\n# Box the versions\n",
            ], date: "2025-05-10T10:00:00Z")
        try repository.commit(
            "Retry rate-limited requests (#11)",
            files: [
                "crates/knope/src/main.rs": "fn main() { retry() }\n",
                ".changeset/retry.md": "---\nknope: minor\nversioning: note\n---\n\n# Retry\n",
            ], date: "2025-05-11T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("fragments = \"knope\""), "\(config)")
        #expect(config.contains("zero-major = \"cargo\""), "\(config)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        #expect(result.status == 0, "\(result)")
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let tool = rows.first { ($0["tag"] as? String)?.hasPrefix("knope/") == true }
        let library = rows.first { ($0["tag"] as? String)?.hasPrefix("versioning/") == true }
        // `knope: minor` below 1.0.0 is a patch; `versioning: major` a minor.
        #expect(tool?["next"] as? String == "0.21.3", "\(rows)")
        #expect(library?["next"] as? String == "0.5.0", "\(rows)")
    }

    /// The same knope.toml after a release: a change file naming only a custom type
    /// (`versioning: note`, written by hand for a dependency's bump) releases the library with no
    /// commit in its folder, as a patch (knope-versioning 0.6.2, round 33).
    @Test func aKnopeChangeFileAloneReleasesItsPackage() throws {
        let repository = try GitRepository()
        let knope = "[packages.versioning]\nversioned_files = [\"./crates/versioning/Cargo.toml\"]\n"
        try repository.commit(
            "Release packages",
            files: [
                "knope.toml": knope,
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/versioning/Cargo.toml": "[package]\nname = \"knope-versioning\"\nversion = \"0.6.1\"\n",
                "crates/versioning/src/lib.rs": "\n",
                "crates/other/Cargo.toml": "[package]\nname = \"other\"\nversion = \"1.0.0\"\n",
                "crates/other/src/lib.rs": "\n",
            ], date: "2025-01-10T10:00:00Z")
        for (index, version) in ["0.6.0", "0.6.1"].enumerated() {
            try repository.commit("Touch \(version)", files: ["crates/versioning/src/lib.rs": "// \(index)\n"], date: "2025-02-1\(index)T10:00:00Z")
            try repository.git("tag", "versioning/v\(version)")
        }
        try repository.commit(
            "chore: Create bump-for-deps.md", files: [".changeset/bump-for-deps.md": "---\nversioning: note\n---\n\nBumped a dependency.\n"],
            date: "2025-03-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let library = rows.first { ($0["tag"] as? String)?.hasPrefix("versioning/") == true }
        #expect(library?["next"] as? String == "0.6.2", "\(result)")
    }

    /// openinference: release-please releases each Python package under the name its config
    /// gives it (`"package-name": "python-openinference-instrumentation-openai"`), tagged
    /// `python-openinference-instrumentation-openai-v0.1.45`, while pyproject.toml calls it
    /// `openinference-instrumentation-openai`. The config's name counted only where the manifest
    /// held no version: init found no release and proposed the released version again (0 of 20
    /// points, round 35).
    @Test func releasePleasesPackageNameNamesTheTagsBesideTheManifestsName() throws {
        let repository = try GitRepository()
        let config = """
            {
              "packages": {
                "python/openai": {"package-name": "python-instrument-openai", "release-type": "python"},
                "python/langchain": {"package-name": "python-instrument-langchain", "release-type": "python"}
              }
            }

            """
        func files(_ openai: String, _ langchain: String) -> [String: String] {
            [
                "release-please-config.json": config,
                "python/openai/pyproject.toml": "[project]\nname = \"instrument-openai\"\nversion = \"\(openai)\"\n",
                "python/langchain/pyproject.toml": "[project]\nname = \"instrument-langchain\"\nversion = \"\(langchain)\"\n",
            ]
        }
        for (index, (openai, langchain)) in [("0.1.43", "0.2.0"), ("0.1.44", "0.2.1"), ("0.1.45", "0.2.2")].enumerated() {
            try repository.commit("chore: release main", files: files(openai, langchain), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "python-instrument-openai-v\(openai)")
            try repository.git("tag", "python-instrument-langchain-v\(langchain)")
        }
        try repository.commit("fix(openai): keep the stream open", files: ["python/openai/src/x.py": "x = 1\n"], date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let openai = rows.first { $0["path"] as? String == "python/openai" }
        #expect(openai?["current"] as? String == "0.1.45", "\(rows)")
        #expect(openai?["next"] as? String == "0.1.46", "\(rows)")
        #expect(openai?["tag"] as? String == "python-instrument-openai-v0.1.46", "\(rows)")
    }

    /// create-tauri-app: covector releases the root crate (`"create-tauri-app": {"path": "."}`)
    /// and the npm package in `node/` (`"create-tauri-app-js": {"path": "./node"}`), tagged by
    /// those names. init made a workspace of pnpm's `node` and `worker` only, and gave the root
    /// crate's series to `node` (its npm name is the crate's): 0 of 10 points for the crate
    /// (round 35). The root is a member; `node`, named like it, is left for its own relctl.toml.
    @Test func covectorsPackagesNameTheMembersAndTheirTags() throws {
        let repository = try GitRepository()
        let covector = """
            {
              "gitSiteUrl": "https://example.invalid/app/",
              "packages": {
                "create-app": {"path": ".", "manager": "rust"},
                "create-app-js": {"path": "./node", "manager": "javascript", "dependencies": ["create-app"]}
              }
            }

            """
        func files(_ version: String) -> [String: String] {
            [
                ".changes/config.json": covector,
                "Cargo.toml": "[package]\nname = \"create-app\"\nversion = \"\(version)\"\nedition = \"2021\"\n",
                "src/main.rs": "fn main() {}\n",
                "package.json": "{\n  \"scripts\": {\"format\": \"prettier --write .\"}\n}\n",
                "pnpm-workspace.yaml": "packages:\n  - node\n  - worker\n",
                "node/package.json": "{\n  \"name\": \"create-app\",\n  \"version\": \"\(version)\"\n}\n",
                "worker/package.json": "{\n  \"name\": \"worker\",\n  \"version\": \"0.1.0\",\n  \"private\": true\n}\n",
            ]
        }
        for (index, version) in ["4.4.0", "4.4.1", "4.5.0"].enumerated() {
            try repository.commit("Publish New Versions (#\(index))", files: files(version), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "create-app-v\(version)")
            try repository.git("tag", "create-app-js-v\(version)")
        }
        try repository.commit(
            "fix: quote the path", files: ["src/main.rs": "fn main() { let _ = 1; }\n", ".changes/quote.md": "---\n\"create-app\": patch\n\"create-app-js\": patch\n---\n\nQuote.\n"],
            date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let result = try relctl(["plan", "--json"], in: repository.url)
        let plan = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (plan["members"] as? [[String: Any]]) ?? []
        let crate = rows.first { $0["path"] as? String == "." || $0["path"] as? String == "" }
        #expect(crate?["tag"] as? String == "create-app-v4.5.1", "\(rows)")
        #expect(!rows.contains { ($0["tag"] as? String)?.hasPrefix("create-app-v") == true && $0["path"] as? String == "node" }, "\(rows)")
    }

    /// serilog keeps its version in MSBuild's `<VersionPrefix>` (`Directory.Version.props`, before
    /// it `src/Serilog/Serilog.csproj`), written ahead of each release; init listed no version
    /// file and proposed patches and minors from untyped commits (5 of 10, round 34).
    @Test(arguments: [
        ("Directory.Version.props", "<Project>\n  <PropertyGroup>\n    <VersionPrefix>4.0.0</VersionPrefix>\n  </PropertyGroup>\n</Project>\n"),
        ("src/Logger/Logger.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <Version>4.0.0</Version>\n  </PropertyGroup>\n</Project>\n"),
    ])
    func msbuildsVersionPrefixIsTheVersion(path: String, text: String) throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["Logger.sln": "\n", "src/Logger/Log.cs": "class Log {}\n"], date: "2025-01-10T10:00:00Z")
        for (index, version) in ["3.0.0", "3.1.0", "3.1.1"].enumerated() {
            try repository.commit("Publish \(version)", files: ["src/Logger/Log.cs": "class Log { int v\(index); }\n"], date: "2025-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("Remove the obsolete sinks", files: [path: text], date: "2025-06-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("path = \"\(path)\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "4.0.0", "\(bump)")
    }

    /// fluentassertions keeps its release notes as a Jekyll page, `docs/_pages/releases.md`,
    /// whose first heading names the coming release (`## 8.2.0`); init read no changelog (8 of
    /// 20 points missed across main and support-7.0, round 34).
    @Test func aJekyllReleasesPageIsTheChangelog() throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["Src/A.cs": "class A {}\n"], date: "2025-01-10T10:00:00Z")
        for (index, version) in ["8.0.0", "8.1.0", "8.1.1"].enumerated() {
            try repository.commit("Release \(version)", files: ["Src/A.cs": "class A { int v\(index); }\n"], date: "2025-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", version)
        }
        let page = "---\ntitle: Releases\n---\n\n## 8.2.0\n\n### Improvements\n\n* Added `BeEquivalentTo` options\n\n## 8.1.1\n\n### Fixes\n\n* A fix\n"
        try repository.commit("Add an option (#3001)", files: ["Src/A.cs": "class A { int w; }\n", "docs/_pages/releases.md": page], date: "2025-06-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("changelog = \"docs/_pages/releases.md\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "8.2.0", "\(bump)")
    }

    /// open-feature's python-sdk-contrib sets release-please's `"bump-patch-for-minor-pre-major":
    /// true`: below 1.0.0 a feat is a patch (flagd 0.2.6 → 0.2.7). init wrote no `zero-major`
    /// at the root and proposed 0.3.0 (round 35).
    @Test func releasePleasesPatchForMinorPreMajorIsCargosRule() throws {
        let repository = try GitRepository()
        let config = "{\n  \"bump-minor-pre-major\": true,\n  \"bump-patch-for-minor-pre-major\": true,\n  \"packages\": {\".\": {\"release-type\": \"python\"}}\n}\n"
        for (index, version) in ["0.2.4", "0.2.5", "0.2.6"].enumerated() {
            try repository.commit(
                "chore(main): release \(version)",
                files: ["release-please-config.json": config, "pyproject.toml": "[project]\nname = \"flagd\"\nversion = \"\(version)\"\n"],
                date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("feat: add the sync provider", files: ["flagd/sync.py": "x = 1\n"], date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config2 = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config2.contains("zero-major = \"cargo\""), "\(config2)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.2.7", "\(bump)")
    }

    /// awaitility: pom.xml's artifactId `awaitility-parent` spelled three old tags
    /// (`awaitility-parent-3.1.2`), but every release since is tagged `awaitility-4.3.0` (its
    /// release script's `-Dtag=`). init took maven-release-plugin's default and proposed
    /// `awaitility-parent-3.1.3` at every point (0 of 10, round 37); its changelog.txt heads the
    /// coming release `Changelog 4.3.0 (2025-02-21)`.
    @Test func mavensDefaultTagIsNotTakenWhereAnotherSpellingReleasedHigher() throws {
        let repository = try GitRepository()
        let pom = "<project>\n  <artifactId>awaitility-parent</artifactId>\n  <version>4.2.3-SNAPSHOT</version>\n</project>\n"
        try repository.git("remote", "add", "origin", "https://github.com/awaitility/awaitility.git")
        try repository.commit("Initial", files: ["pom.xml": pom, "src/A.java": "class A {}\n"], date: "2015-01-10T10:00:00Z")
        for (index, version) in ["1.3.1", "1.3.3", "3.1.2"].enumerated() {
            try repository.commit("[maven-release-plugin] prepare release \(version)", files: ["src/A.java": "class A { int o\(index); }\n"], date: "201\(index + 6)-02-10T10:00:00Z")
            try repository.git("tag", "awaitility-parent-\(version)")
        }
        for (index, version) in ["4.0.0", "4.0.1", "4.1.0", "4.1.1", "4.2.0", "4.2.2"].enumerated() {
            try repository.commit("[maven-release-plugin] prepare release awaitility-\(version)", files: ["src/A.java": "class A { int n\(index); }\n"], date: "202\(index + 2)-02-10T10:00:00Z")
            try repository.git("tag", "awaitility-\(version)")
        }
        let changelog = "Changelog 4.3.0 (2025-02-21)\n----------------------------\n* Added support for Kotlin durations\n\nChangelog 4.2.2 (2024-08-01)\n----------------------------\n* Fixed a race\n"
        try repository.commit("Kotlin durations", files: ["src/K.java": "class K {}\n", "changelog.txt": changelog], date: "2025-02-20T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(!config.contains("awaitility-parent-{version}"), "\(config)")
        let bump = try relctl(["bump", "--json"], in: repository.url)
        let json = (try? JSONSerialization.jsonObject(with: Data(bump.stdout.utf8)) as? [String: Any]) ?? [:]
        #expect(json["tag"] as? String == "awaitility-4.3.0", "\(bump)")
    }

    /// skuba's pnpm workspace lists `template/*`, whose `template/greeter` is a project template
    /// named `@seek/<%- repoName %>`: init listed it and wrote a tag format git cannot create, and
    /// `plan` exited 2 (round 37). A member no tag can spell is not listed; a comment says why.
    @Test func aMemberNoTagCanSpellIsNotListed() throws {
        let repository = try GitRepository()
        func files(_ version: String) -> [String: String] {
            [
                "package.json": "{\n  \"name\": \"skuba\",\n  \"version\": \"\(version)\"\n}\n",
                "pnpm-workspace.yaml": "packages:\n  - packages/*\n  - template/*\n",
                "packages/eslint-config/package.json": "{\n  \"name\": \"eslint-config-skuba\",\n  \"version\": \"\(version)\"\n}\n",
                "template/greeter/package.json": "{\n  \"name\": \"@seek/<%- repoName %>\",\n  \"version\": \"0.0.0\",\n  \"private\": true\n}\n",
            ]
        }
        for (index, version) in ["16.0.0", "16.1.0", "16.1.1"].enumerated() {
            try repository.commit("Version Packages (#\(index))", files: files(version), date: "2025-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "skuba@\(version)")
            try repository.git("tag", "eslint-config-skuba@\(version)")
        }
        try repository.commit("fix: quote the greeting", files: ["packages/eslint-config/index.js": "x\n", "template/greeter/src/app.ts": "y\n"], date: "2025-05-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("which no tag can spell"), "\(config)")
        let plan = try relctl(["plan"], in: repository.url)
        #expect(plan.status == 0, "\(plan)")
        #expect(plan.stdout.contains("eslint-config-skuba@16.1.2"), "\(plan)")
    }

    /// libpcap's VERSION holds `1.5.0-PRE-GIT` while 1.5.0 is prepared, and jackson-core's pom
    /// `2.19.0-rc1-SNAPSHOT` while its rc1 is: relctl proposed the development marker itself
    /// (`libpcap-1.5.0-PRE-GIT`, round 36; `2.19.0-rc1-SNAPSHOT`, round 37), which it never
    /// proposes. The first is a marker as `-pre` is, the second the candidate's.
    @Test(arguments: [("1.5.0-PRE-GIT", "1.5.0"), ("2.0.0-rc1-SNAPSHOT", "2.0.0-rc1")])
    func aDevelopmentMarkerIsNeverProposed(held: String, next: String) throws {
        let repository = try GitRepository()
        for (index, version) in ["1.3.0", "1.4.0"].enumerated() {
            try repository.commit("Release \(version)", files: ["VERSION": "\(version)\n", "pcap.c": "int v\(index);\n"], date: "2024-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "libpcap-\(version)")
        }
        try repository.commit("Prepare the next release", files: ["VERSION": "\(held)\n"], date: "2024-05-10T10:00:00Z")
        try repository.commit("Add TPACKET_V3 support.", files: ["pcap.c": "int w;\n"], date: "2024-06-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == next, "\(bump)")
    }

    /// Nim releases even patches only (`v1.6.0`, `v1.6.2` … `v1.6.20`; the odd ones are its
    /// development builds): relctl proposed the odd patch at every point of its two maintenance
    /// lines (3 of 20, round 37). Where the six newest patch steps all go by two from an even
    /// number, the next patch does too; a project stepping by one keeps its step.
    @Test(arguments: [(2, "1.6.14"), (1, "1.6.7")])
    func patchesSteppingByTwoStepByTwo(step: Int, next: String) throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["compiler/nim.nim": "discard\n"], date: "2021-01-10T10:00:00Z")
        for index in 0..<7 {
            let version = "1.6.\(index * step)"
            try repository.commit("bump to \(version)", files: ["compiler/nim.nim": "discard \(index)\n"], date: "2021-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("fix #19499 disable nimlsp", files: ["compiler/lsp.nim": "discard\n"], date: "2022-01-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == next, "\(bump)")
    }

    /// Versions written ahead of the tag in manifests init did not read: zine's build.zig.zon
    /// (`.version = "0.11.0"` after v0.10.4), nimble's `nimble.nimble` (`version = "0.18.2"`) and
    /// abseil's MODULE.bazel (`module(name = "abseil-cpp", version = "20250127.0")`): 3 points of
    /// round 37 and 6 of round 36.
    @Test(arguments: [
        ("build.zig.zon", ".{\n    .name = .zine,\n    .version = \"0.11.0\",\n    .dependencies = .{},\n}\n", "0.11.0"),
        ("nimble.nimble", "# Package\n\nversion       = \"0.11.0\"\nauthor        = \"Dominik Picheta\"\n", "0.11.0"),
        ("MODULE.bazel", "module(\n    name = \"abseil-cpp\",\n    version = \"0.11.0\",\n    compatibility_level = 1,\n)\n", "0.11.0"),
    ])
    func versionsWrittenAheadInZigNimAndBazelManifests(path: String, text: String, next: String) throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["src/main.c": "int main;\n"], date: "2024-01-10T10:00:00Z")
        for (index, version) in ["0.10.2", "0.10.3", "0.10.4"].enumerated() {
            try repository.commit("Release \(version)", files: ["src/main.c": "int v\(index);\n"], date: "2024-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", "v\(version)")
        }
        try repository.commit("Start the next release", files: [path: text, "src/new.c": "int n;\n"], date: "2024-06-10T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("path = \"\(path)\""), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == next, "\(bump)")
    }

    /// reckon (Gradle) configured with `calcScopeFromCommitMessages()` releases a commit whose
    /// subject names a level as that level (`minor: Support the Scope enum`): relctl read the
    /// subjects as untyped and proposed patches for reckon's 0.18.0 and 0.19.0 (round 37).
    @Test func reckonsCommitMessageScopesGiveTheLevel() throws {
        let repository = try GitRepository()
        let settings = "plugins {\n  id(\"org.ajoberstar.reckon.settings\")\n}\nextensions.configure<org.ajoberstar.reckon.gradle.ReckonExtension> {\n  setScopeCalc(calcScopeFromProp().or(calcScopeFromCommitMessages()))\n}\n"
        try repository.commit("Initial", files: ["settings.gradle.kts": settings, "src/A.kt": "class A\n"], date: "2024-01-10T10:00:00Z")
        for (index, version) in ["0.17.0", "0.17.1", "0.17.2"].enumerated() {
            try repository.commit("patch: Update dependencies (\(index))", files: ["src/A.kt": "class A\(index)\n"], date: "2024-0\(index + 2)-10T10:00:00Z")
            try repository.git("tag", version)
        }
        try repository.commit("minor: Support the Scope enum on the extension", files: ["src/B.kt": "class B\n"], date: "2024-06-10T10:00:00Z")
        try repository.commit("patch: Update dependencies", files: ["src/C.kt": "class C\n"], date: "2024-06-11T10:00:00Z")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("scope-levels = true"), "\(config)")
        let bump = try relctl(["bump"], in: repository.url)
        #expect(bump.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.18.0", "\(bump)")
    }

    /// tokenizers' `bindings/node` (package.json 0.8.1, its latest tag `node-v0.8.0`) beside the
    /// Python binding, whose `python-v0.8.1` names the same version: init in the folder took the
    /// Python series (3 points and 8 tag spellings of round 35). A series named after the folder
    /// itself is the folder's.
    @Test func aSeriesNamedAfterTheMembersFolderIsItsOwn() throws {
        let repository = try GitRepository()
        func files(_ node: String, _ python: String) -> [String: String] {
            [
                "bindings/node/package.json": "{\n  \"name\": \"tokenizers\",\n  \"version\": \"\(node)\"\n}\n",
                "bindings/python/pyproject.toml": "[project]\nname = \"tokenizers\"\nversion = \"\(python)\"\n",
            ]
        }
        for (index, (node, python)) in [("0.6.2", "0.8.0"), ("0.7.0", "0.8.1"), ("0.8.0", "0.9.0")].enumerated() {
            try repository.commit("Release \(index)", files: files(node, python), date: "2020-0\(index + 1)-10T10:00:00Z")
            try repository.git("tag", "node-v\(node)")
            try repository.git("tag", "python-v\(python)")
        }
        try repository.commit("Node - Prepare for release", files: files("0.8.1", "0.9.0"), date: "2020-05-10T10:00:00Z")
        let folder = repository.url.appendingPathComponent("bindings/node")
        let initialised = try relctl(["init", "--quiet"], in: folder)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: folder.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("tag-format = \"node-v{version}\""), "\(config)")
        let bump = try relctl(["bump", "--json"], in: folder)
        let json = (try? JSONSerialization.jsonObject(with: Data(bump.stdout.utf8)) as? [String: Any]) ?? [:]
        #expect(json["tag"] as? String == "node-v0.8.1", "\(bump)")
    }

    /// kyverno's `release-1.16` tags a candidate (`v1.16.2-rc.1`), then the final on the same
    /// code: with nothing changed since the candidate, relctl proposed nothing there (3 points of
    /// round 35), as it promotes the candidate on a branch without a rule. A maintenance line
    /// whose range holds the final promotes it too.
    @Test func aMaintenanceLinePromotesItsCandidateWhenNothingChanged() throws {
        let repository = try GitRepository()
        try repository.commit("Initial", files: ["main.go": "package main\n"], date: "2025-01-10T10:00:00Z")
        try repository.git("tag", "v1.16.0")
        try repository.git("checkout", "-q", "-b", "release-1.16")
        try repository.commit("fix: close the watch (#1)", files: ["watch.go": "package main\n"], date: "2025-02-10T10:00:00Z")
        try repository.git("tag", "v1.16.1")
        try repository.commit("fix: verify every signature (#2)", files: ["verify.go": "package main\n"], date: "2025-03-10T10:00:00Z")
        try repository.git("tag", "v1.16.2-rc.1")
        try repository.git("checkout", "-q", "-")
        try repository.commit("feat: policy reports (#3)", files: ["reports.go": "package main\n"], date: "2025-04-10T10:00:00Z")
        try repository.git("checkout", "-q", "release-1.16")
        let initialised = try relctl(["init", "--quiet"], in: repository.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = (try? String(contentsOf: repository.url.appendingPathComponent("relctl.toml"), encoding: .utf8)) ?? ""
        #expect(config.contains("range = \"1.16.x\""), "\(config)")
        let plan = try relctl(["plan", "--json"], in: repository.url)
        let json = (try? JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any]) ?? [:]
        let rows = (json["members"] as? [[String: Any]]) ?? []
        #expect(rows.first?["next"] as? String == "1.16.2", "\(plan)")
    }
}
