import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Dependents in a `[workspace]` (issue 42, the contract's "Monorepos"): a member depending on a
/// released member gets at least a patch release with reason `dependency`, never a major because
/// of a dependency's major; `bump --write` rewrites the dependents' requirements (only those
/// bytes) and each member's own CHANGELOG.md. Checked with cargo and npm after the write.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct WorkspaceDependentsCLITests {
    typealias PlannedMember = MemberPlanDocument.Member

    static func plan(_ repository: GitRepository) throws -> [String: PlannedMember] {
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        return Dictionary(uniqueKeysWithValues: members.map { ($0.name, $0) })
    }

    static func tool(_ line: String, in repository: GitRepository, target: TemporaryDirectory? = nil) throws {
        var environment: [String: String] = [:]
        if let target { environment["CARGO_TARGET_DIR"] = target.path }
        let result = try sh(line, in: repository.url, environment: environment)
        #expect(result.status == 0, "\(line): \(result)")
    }

    static func crate(_ name: String, _ version: String, _ tail: String = "") -> String {
        "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n" + tail
    }

    // A chain app → cli → core, `tool` on core through `[workspace.dependencies]`, and core's
    // dev-dependency on app (a cycle Cargo allows, which orders nothing).
    static let cli = crate(
        "cli", "0.3.0",
        "\n[dependencies]\n# core is ours, released with us\ncore = { path = \"../core\", version = \"1.0\" }   # keep\n"
    )
    static let app = crate("app", "2.0.0", "\n[dependencies.cli]\npath = \"../cli\"\nversion = \"^0.3\"\n")
    static let tool = crate("tool", "0.1.0", "\n[dependencies]\ncore = { workspace = true }\n")
    static let core = crate("core", "1.0.0", "\n[dev-dependencies]\napp = { path = \"../app\", version = \"2.0\" }\n")
    static let rootManifest =
        "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n\n[workspace.dependencies]\ncore = { path = \"crates/core\", version = \"1.0.0\" }\n"

    static func cargoWorkspace() throws -> GitRepository {
        let repository = try GitRepository()
        var files = [
            "relctl.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
            "Cargo.toml": rootManifest,
            "crates/core/Cargo.toml": core, "crates/cli/Cargo.toml": cli, "crates/app/Cargo.toml": app,
            "crates/tool/Cargo.toml": tool,
            "crates/core/CHANGELOG.md": "# Changelog\n\n## 1.0.0 - 2025-12-01\n\n- The start.\n",
            "crates/cli/CHANGELOG.md": "# Changelog\n",
        ]
        for name in ["core", "cli", "app", "tool"] { files["crates/\(name)/src/lib.rs"] = "\n" }
        for (path, text) in files { try repository.directory.write(path, text) }
        try tool("cargo generate-lockfile --offline", in: repository)
        try repository.commit("chore: start")
        for tag in ["core-v1.0.0", "cli-v0.3.0", "app-v2.0.0", "tool-v0.1.0"] {
            try repository.git("tag", "-a", tag, "-m", tag)
        }
        return repository
    }

    /// A dependency's major leaves its dependents at a patch release, through the chain, and
    /// `bump --write` raises each requirement in place: cargo then resolves the workspace locked.
    @Test func cargoDependentsFollowAMajorWithPatchReleases() throws {
        let repository = try Self.cargoWorkspace()
        try repository.commit(
            "feat!: core drops the old API", files: ["crates/core/src/lib.rs": "pub fn new() {}\n"])
        try repository.commit("docs: a note outside any member", files: ["README.md": "# hi\n"])
        let members = try Self.plan(repository)
        #expect(
            members["core"]
                == PlannedMember(
                    name: "core", path: "crates/core", current: "1.0.0", next: "2.0.0", tag: "core-v2.0.0",
                    reason: "breaking", commits: 1, branch: nil), "\(members)")
        #expect(
            members["cli"]
                == PlannedMember(
                    name: "cli", path: "crates/cli", current: "0.3.0", next: "0.3.1", tag: "cli-v0.3.1",
                    reason: "dependency", commits: 0, branch: nil), "\(members)")
        #expect(members["app"]?.next == "2.0.1" && members["app"]?.reason == "dependency", "the chain: \(members)")
        #expect(members["tool"]?.next == "0.1.1" && members["tool"]?.reason == "dependency", "\(members)")

        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(bumped.stdout == "app 2.0.1\ncli 0.3.1\ncore 2.0.0\ntool 0.1.1\n", "\(bumped)")
        // Only the requirement's version text changed: comments, spacing and order are kept.
        let read = { (path: String) in try repository.directory.read(path) }
        #expect(
            try read("crates/cli/Cargo.toml")
                == Self.cli.replacingOccurrences(of: "0.3.0", with: "0.3.1")
                .replacingOccurrences(of: "version = \"1.0\" }", with: "version = \"2.0.0\" }"))
        #expect(
            try read("crates/app/Cargo.toml")
                == Self.app.replacingOccurrences(of: "2.0.0", with: "2.0.1")
                .replacingOccurrences(of: "\"^0.3\"", with: "\"^0.3.1\""))
        #expect(
            try read("Cargo.toml") == Self.rootManifest.replacingOccurrences(of: "\"1.0.0\"", with: "\"2.0.0\""))
        #expect(
            try read("crates/core/Cargo.toml")
                == Self.core.replacingOccurrences(of: "1.0.0", with: "2.0.0")
                .replacingOccurrences(of: "version = \"2.0\" }", with: "version = \"2.0.1\" }"))
        #expect(
            bumped.stderr.contains("crates/cli/Cargo.toml:8: requirement of `cli` on `core` 1.0 → 2.0.0"), "\(bumped)")
        let target = try TemporaryDirectory()
        try Self.tool(
            "cargo metadata --locked --offline --format-version 1 > /dev/null", in: repository, target: target)
    }

    /// Each member's CHANGELOG.md: its own commits only; a dependency-only release names the
    /// dependency that moved.
    @Test func eachMemberWritesItsOwnChangelog() throws {
        let repository = try Self.cargoWorkspace()
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repository.commit("fix: the app's own bug", files: ["crates/app/src/lib.rs": "pub fn app() {}\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        let core = try repository.directory.read("crates/core/CHANGELOG.md")
        #expect(core.contains("## 1.1.0 - ") && core.contains("core learns a trick"), "\(core)")
        #expect(!core.contains("the app's own bug"), "another member's commit: \(core)")
        #expect(core.hasSuffix("## 1.0.0 - 2025-12-01\n\n- The start.\n"), "the old section is kept: \(core)")
        let cli = try repository.directory.read("crates/cli/CHANGELOG.md")
        #expect(cli.contains("## 0.3.1 - ") && cli.contains("### Dependencies\n\n- core 1.1.0\n"), "\(cli)")
        #expect(!cli.contains("trick") && !cli.contains("No notable changes"), "\(cli)")
        #expect(!repository.directory.exists("crates/app/CHANGELOG.md"), "a member without one gets none")
        let json = try relctl(["bump", "--json"], in: repository.url)
        #expect(json.status == 0 && json.stdout.contains("dependency"), "\(json)")
    }

    /// npm: a plain range the member satisfies and `workspace:^` are dependents; a range it does
    /// not satisfy is the registry's package. A peer dependency's major is a patch here.
    @Test func npmWorkspaceRangesAndPeers() throws {
        let repository = try GitRepository()
        let cliManifest =
            "{\n  \"name\": \"cli\",\n  \"version\": \"0.3.0\",\n  \"dependencies\": {\n    \"core\": \"^1.0.0\"\n  }\n}\n"
        let uiManifest = "{\"name\":\"ui\",\"version\":\"4.1.0\",\"peerDependencies\":{\"core\":\"~1.0\"}}\n"
        let webManifest =
            "{\n  \"name\": \"web\",\n  \"version\": \"2.0.0\",\n  \"dependencies\": { \"core\": \"workspace:^\" }\n}\n"
        let legacyManifest =
            "{\n  \"name\": \"legacy\",\n  \"version\": \"0.1.0\",\n  \"dependencies\": { \"core\": \"^0.9.0\" }\n}\n"
        // npm reads neither `workspace:` (pnpm and yarn do) nor a core it would fetch from the
        // registry: those two members are outside npm's workspaces, inside relctl's.
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"packages/*\", \"apps/*\"]\n",
                "package.json":
                    "{\n  \"name\": \"root\",\n  \"private\": true,\n  \"workspaces\": [\"packages/*\"]\n}\n",
                "packages/core/package.json": "{\n  \"name\": \"core\",\n  \"version\": \"1.0.0\"\n}\n",
                "packages/cli/package.json": cliManifest,
                "packages/ui/package.json": uiManifest,
                "apps/legacy/package.json": legacyManifest,
                "apps/web/package.json": webManifest,
            ])
        try Self.tool("npm install --offline --package-lock-only --no-audit --no-fund -q", in: repository)
        try repository.commit("chore: the lock")
        for tag in ["core-v1.0.0", "cli-v0.3.0", "ui-v4.1.0", "legacy-v0.1.0", "web-v2.0.0"] {
            try repository.git("tag", "-a", tag, "-m", tag)
        }
        let lock = try repository.directory.read("package-lock.json")
        try repository.commit("feat!: core's new API", files: ["packages/core/index.js": "exports.v = 2\n"])
        let members = try Self.plan(repository)
        #expect(members["core"]?.next == "2.0.0", "\(members)")
        #expect(members["cli"]?.next == "0.3.1" && members["cli"]?.reason == "dependency", "\(members)")
        #expect(members["web"]?.next == "2.0.1" && members["web"]?.reason == "dependency", "\(members)")
        #expect(members["ui"]?.next == "4.1.1" && members["ui"]?.reason == "dependency", "peer: no major: \(members)")
        #expect(members["legacy"]?.next == nil && members["legacy"]?.reason == "none", "\(members)")

        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        #expect(
            try repository.directory.read("packages/cli/package.json")
                == cliManifest.replacingOccurrences(of: "0.3.0", with: "0.3.1").replacingOccurrences(
                    of: "^1.0.0", with: "^2.0.0"))
        #expect(
            try repository.directory.read("packages/ui/package.json")
                == uiManifest.replacingOccurrences(of: "4.1.0", with: "4.1.1").replacingOccurrences(
                    of: "~1.0", with: "~2.0.0"))
        #expect(
            try repository.directory.read("apps/web/package.json")
                == webManifest.replacingOccurrences(of: "2.0.0", with: "2.0.1"), "workspace:^ stays")
        #expect(
            try repository.directory.read("apps/legacy/package.json") == legacyManifest,
            "not a dependent")
        // The root lock follows: the member's version and the dependents' requirements.
        let lockNow = try repository.directory.read("package-lock.json")
        #expect(
            lockNow != lock && !lockNow.contains("\"1.0.0\"") && lockNow.contains("\"core\": \"^2.0.0\""), "\(lockNow)")
        try Self.tool("npm ci --offline --no-audit --no-fund -q", in: repository)
        try Self.tool("npm install --offline --package-lock-only --no-audit --no-fund -q", in: repository)
        #expect(try repository.directory.read("package-lock.json") == lockNow, "npm writes the lock relctl wrote")
    }

    /// A group with a member raised by a dependency releases together; PEP 621 and SwiftPM path
    /// dependencies are read too.
    @Test func aGroupRaisedByADependencyAndOtherEcosystems() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[workspace]\nmembers = [\"py/*\", \"swift/*\"]\n\n[[workspace.group]]\nname = \"clients\"\nmembers = [\"api\", \"docs\"]\n",
                "py/core/pyproject.toml": "[project]\nname = \"Core_Lib\"\nversion = \"1.2.0\"\n",
                "py/api/pyproject.toml":
                    "[project]\nname = \"api\"\nversion = \"0.5.0\"\ndependencies = [\"core-lib >=1.2\", \"requests\"]\n",
                "py/docs/pyproject.toml": "[project]\nname = \"docs\"\nversion = \"0.5.0\"\n",
                "swift/Kit/Package.swift":
                    "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Kit\")\n",
                "swift/App/Package.swift":
                    "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"App\", dependencies: [.package(path: \"../Kit\")])\n",
            ])
        for tag in ["Core_Lib-v1.2.0", "api-v0.5.0", "docs-v0.5.0", "Kit-v1.0.0", "App-v3.0.0"] {
            try repository.git("tag", "-a", tag, "-m", tag)
        }
        try repository.commit("fix: core", files: ["py/core/core.py": "x = 1\n"])
        try repository.commit("feat: kit", files: ["swift/Kit/Sources/Kit/Kit.swift": "public let kit = 1\n"])
        let members = try Self.plan(repository)
        #expect(members["api"]?.next == "0.5.1" && members["api"]?.reason == "dependency", "\(members)")
        #expect(members["docs"]?.next == "0.5.1" && members["docs"]?.reason == "group", "\(members)")
        #expect(members["App"]?.next == "3.0.1" && members["App"]?.reason == "dependency", "\(members)")
        #expect(members["Kit"]?.next == "1.1.0" && members["Kit"]?.reason == "feat", "\(members)")
    }

    /// Members that depend on each other have no release order: exit 2 naming them. A cycle
    /// through a dev-dependency is Cargo's normal case and is no cycle here.
    @Test func aDependencyCycleIsRefused() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"packages/*\"]\n",
                "packages/a/package.json":
                    "{\"name\":\"a\",\"version\":\"1.0.0\",\"dependencies\":{\"b\":\"workspace:*\"}}\n",
                "packages/b/package.json":
                    "{\"name\":\"b\",\"version\":\"1.0.0\",\"dependencies\":{\"c\":\"^1.0.0\"}}\n",
                "packages/c/package.json":
                    "{\"name\":\"c\",\"version\":\"1.0.0\",\"dependencies\":{\"a\":\"1.0.0\"}}\n",
                "packages/d/package.json": "{\"name\":\"d\",\"version\":\"1.0.0\"}\n",
            ])
        for command in [["plan"], ["bump", "--write"]] {
            let refused = try relctl(command, in: repository.url)
            #expect(refused.status == 2, "\(command): \(refused)")
            #expect(
                refused.stderr.contains("relctl.toml") && refused.stderr.contains("`a` → `b` → `c` → `a`"), "\(refused)"
            )
        }
        #expect(try repository.git("status", "--porcelain").isEmpty, "nothing written")
        try repository.commit(
            "chore: c needs a only to test",
            files: [
                "packages/c/package.json":
                    "{\"name\":\"c\",\"version\":\"1.0.0\",\"devDependencies\":{\"a\":\"1.0.0\"}}\n"
            ])
        let planned = try relctl(["plan"], in: repository.url)
        #expect(planned.status == 0, "\(planned)")
    }
}
