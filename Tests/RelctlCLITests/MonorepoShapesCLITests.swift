import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Repository shapes relctl had never seen (issue 54): each generated here as the public project
/// has it, then read by the built relctl as a new user would (`init`, `check`, `plan`, `bump`).
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct MonorepoShapesCLITests {
    static func crate(_ name: String, _ version: String, extra: String = "") -> String {
        "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\nedition = \"2021\"\n\(extra)"
    }

    // MARK: Item 1: a root package listing itself as a member

    /// just's shape: the root package lists itself, `.`, among its members. init used to recurse
    /// (findings → workspace offer → findings of `.` …) until the stack ran out (exit 139).
    @Test func aRootPackageListingItselfAsAMemberIsReadWithoutRecursing() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Cargo.toml": Self.crate("just", "1.40.0", extra: "\n[workspace]\nmembers = [\".\", \"crates/*\"]\n"),
                "src/main.rs": "fn main() {}\n",
                "crates/generate/Cargo.toml": Self.crate("generate", "0.0.0", extra: "publish = false\n"),
                "crates/generate/src/main.rs": "fn main() {}\n",
            ])
        try repository.git("tag", "1.40.0")
        try repository.commit("fix: a fix", files: ["src/main.rs": "fn main() { }\n"])
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("tag-format = \"{version}\""), "\(written)")
        #expect(written.contains("[[version]]\npath = \"Cargo.toml\"\n"), "\(written)")
        #expect(!written.contains("crates/generate/Cargo.toml"), "\(written)")
        let checked = try relctl(["check"], in: repository.url)
        #expect(checked.status == 0, "\(checked)")
        let bumped = try relctl(["bump"], in: repository.url)
        #expect(bumped.status == 0 && bumped.stdout.contains("1.40.1"), "\(bumped)")
    }

    /// The same shape with member tags: an active workspace whose root member `.` is a member like
    /// any other, planned without recursing.
    @Test func aRootMemberDotInAnActiveWorkspaceIsPlannedLikeAnyOther() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Cargo.toml": Self.crate("app", "1.0.0", extra: "\n[workspace]\nmembers = [\".\", \"crates/*\"]\n"),
                "src/main.rs": "fn main() {}\n",
                "crates/core/Cargo.toml": Self.crate("core", "0.3.0"),
                "crates/core/src/lib.rs": "\n",
            ])
        try repository.git("tag", "app-v1.0.0")
        try repository.git("tag", "core-v0.3.0")
        try repository.commit("feat: core learns", files: ["crates/core/src/lib.rs": "pub fn a() {}\n"])
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("[workspace]\nmembers = [\".\", \"crates/*\"]"), "\(written)")
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        #expect(members.map(\.name) == ["app", "core"], "\(members)")
        #expect(members.first { $0.name == "core" }?.tag == "core-v0.4.0", "\(members)")
        #expect(members.first { $0.name == "app" }?.next == nil, "only core changed: \(members)")
    }

    // MARK: Item 12: [package] and [workspace.package] version in one file

    /// wasmtime's root Cargo.toml is a package inheriting `version.workspace = true` from the
    /// `[workspace.package]` table of the same file.
    @Test func aRootPackageInheritingFromItsOwnWorkspacePackageIsRead() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Cargo.toml": """
                [package]
                name = "wasmtime-cli"
                version.workspace = true
                edition = "2021"

                [workspace]
                members = ["crates/*"]

                [workspace.package]
                version = "48.0.0"

                """,
                "src/main.rs": "fn main() {}\n",
                "crates/wasmtime/Cargo.toml":
                    "[package]\nname = \"wasmtime\"\nversion.workspace = true\nedition = \"2021\"\n",
                "crates/wasmtime/src/lib.rs": "\n",
            ])
        try repository.git("tag", "v48.0.0")
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let checked = try relctl(["check"], in: repository.url)
        #expect(checked.status == 0, "\(checked)")
        let validated = try relctl(["validate-tag", "v48.0.0"], in: repository.url)
        #expect(validated.status == 0, "\(validated)")
        let wrong = try relctl(["validate-tag", "v48.0.1"], in: repository.url)
        #expect(wrong.status == 1, "a tag the manifest does not hold is refused: \(wrong)")
        try repository.commit("fix: a fix", files: ["src/main.rs": "fn main() { }\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0, "\(bumped)")
        let manifest = try repository.directory.read("Cargo.toml")
        #expect(manifest.contains("[workspace.package]\nversion = \"48.0.1\""), "\(manifest)")
        #expect(manifest.contains("version.workspace = true"), "\(manifest)")
    }

    // MARK: Items 3 and 11: a virtual workspace whose crates hold versions of their own

    /// alacritty's shape: the application crate and its libraries on lines of their own, the
    /// repository's tags releasing the application. bump used to take alacritty_terminal's 0.25.
    @Test func aVirtualWorkspaceKeepsTheApplicationsLineAndLeavesTheOthersAlone() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"alacritty\", \"alacritty_terminal\", \"alacritty_config\"]\n",
                "alacritty/Cargo.toml": Self.crate("alacritty", "0.15.1"),
                "alacritty/src/main.rs": "fn main() {}\n",
                "alacritty_terminal/Cargo.toml": Self.crate("alacritty_terminal", "0.25.0"),
                "alacritty_terminal/src/lib.rs": "\n",
                "alacritty_config/Cargo.toml": Self.crate("alacritty_config", "0.2.3"),
                "alacritty_config/src/lib.rs": "\n",
            ])
        try repository.git("tag", "v0.15.1")
        try repository.commit("fix: terminal fix", files: ["alacritty_terminal/src/lib.rs": "pub fn a() {}\n"])
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("[[version]]\npath = \"alacritty/Cargo.toml\"\n"), "\(written)")
        #expect(!written.contains("path = \"alacritty_terminal/Cargo.toml\""), "\(written)")
        #expect(!written.contains("path = \"alacritty_config/Cargo.toml\""), "\(written)")
        #expect(written.contains("0.25.0 in alacritty_terminal"), "the other lines are said: \(written)")
        #expect(try relctl(["validate-tag", "v0.15.1"], in: repository.url).status == 0)
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0 && bumped.stdout.contains("0.15.2"), "\(bumped)")
        #expect(try repository.directory.read("alacritty/Cargo.toml").contains("version = \"0.15.2\""))
        #expect(try repository.directory.read("alacritty_terminal/Cargo.toml").contains("version = \"0.25.0\""))
        #expect(try repository.directory.read("alacritty_config/Cargo.toml").contains("version = \"0.2.3\""))
    }

    /// ruff's shape: bare `0.16.4` tags, several crates on that line, others at 0.0.10 and 0.0.0.
    /// validate-tag 0.16.4 used to exit 1 and bump --write rewrote the 0.0.10 crates to 0.16.5.
    @Test func aVirtualWorkspaceWithSeveralCratesOnTheTaggedLineBumpsOnlyThose() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/ruff/Cargo.toml": Self.crate("ruff", "0.16.4"),
                "crates/ruff/src/main.rs": "fn main() {}\n",
                "crates/ruff_wasm/Cargo.toml": Self.crate("ruff_wasm", "0.16.4"),
                "crates/ruff_wasm/src/lib.rs": "\n",
                "crates/ty/Cargo.toml": Self.crate("ty", "0.0.10"),
                "crates/ty/src/main.rs": "fn main() {}\n",
                "crates/ruff_cache/Cargo.toml": Self.crate("ruff_cache", "0.0.0", extra: "publish = false\n"),
                "crates/ruff_cache/src/lib.rs": "\n",
            ])
        try repository.git("tag", "0.16.4")
        try repository.commit("fix: a fix", files: ["crates/ruff/src/main.rs": "fn main() { }\n"])
        #expect(try relctl(["init"], in: repository.url).status == 0)
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("tag-format = \"{version}\""), "\(written)")
        let validated = try relctl(["validate-tag", "0.16.4"], in: repository.url)
        #expect(validated.status == 0, "\(validated)")
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        #expect(bumped.status == 0 && bumped.stdout.contains("0.16.5"), "\(bumped)")
        #expect(try repository.directory.read("crates/ruff/Cargo.toml").contains("version = \"0.16.5\""))
        #expect(try repository.directory.read("crates/ruff_wasm/Cargo.toml").contains("version = \"0.16.5\""))
        #expect(try repository.directory.read("crates/ty/Cargo.toml").contains("version = \"0.0.10\""))
        #expect(try repository.directory.read("crates/ruff_cache/Cargo.toml").contains("version = \"0.0.0\""))
    }

    // MARK: Item 5: release-plz workspaces

    /// cargo-binstall's shape: the application tagged `v1.22.0`, libraries `binstalk-v0.28.80`.
    /// plan used to propose releasing 1.22.0 again as `cargo-binstall-v1.22.0`.
    @Test func aReleasePlzWorkspaceGivesEachMemberTheFormatOfItsOwnTags() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/bin/Cargo.toml": Self.crate("cargo-binstall", "1.22.0"),
                "crates/bin/src/main.rs": "fn main() {}\n",
                "crates/binstalk/Cargo.toml": Self.crate("binstalk", "0.28.80"),
                "crates/binstalk/src/lib.rs": "\n",
                "crates/binstalk-downloader/Cargo.toml": Self.crate("binstalk-downloader", "0.13.44"),
                "crates/binstalk-downloader/src/lib.rs": "\n",
                "crates/detect-targets/Cargo.toml": Self.crate("detect-targets", "0.1.0", extra: "publish = false\n"),
                "crates/detect-targets/src/lib.rs": "\n",
            ])
        try repository.git("tag", "v1.22.0")
        try repository.git("tag", "binstalk-v0.28.80")
        try repository.git("tag", "binstalk-downloader-v0.13.44")
        try repository.commit("fix: binstalk fix", files: ["crates/binstalk/src/lib.rs": "pub fn a() {}\n"])
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("tag-format = \"{member}-v{version}\""), "\(written)")
        #expect(written.contains("[workspace.tag-formats]\ncargo-binstall = \"v{version}\"\n"), "\(written)")
        #expect(try relctl(["check"], in: repository.url).status == 0)
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        #expect(members.first { $0.name == "cargo-binstall" }?.next == nil, "released already: \(members)")
        #expect(members.first { $0.name == "cargo-binstall" }?.current == "1.22.0", "\(members)")
        #expect(members.first { $0.name == "binstalk" }?.tag == "binstalk-v0.28.81", "\(members)")
        #expect(members.first { $0.name == "binstalk-downloader" }?.next == nil, "\(members)")
        // LOW: a `publish = false` crate never tagged is not proposed for release.
        let helper = members.first { $0.name == "detect-targets" }
        #expect(helper?.next == nil && helper?.reason == "unpublished", "\(members)")
        let pending = try relctl(["ci", "pending"], in: repository.url)
        #expect(pending.status == 0, "\(pending)")
        #expect(!pending.stdout.contains("cargo-binstall"), "nothing of the application is pending: \(pending)")
        #expect(!pending.stdout.contains("detect-targets"), "\(pending)")
    }

    // MARK: Item 6: changesets monorepos

    static func npm(_ name: String, _ version: String, extra: String = "") -> String {
        #"{"name": "\#(name)", "version": "\#(version)"\#(extra)}"#
    }

    /// sveltejs/kit's shape: pnpm-workspace.yaml, changesets tags `@sveltejs/kit@2.2.0`, one stray
    /// tag of a site, a private package never tagged.
    @Test func aPnpmChangesetsWorkspaceKeepsTheScopeInEachMembersTags() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "package.json": #"{"name": "kit-monorepo", "private": true}"#,
                "pnpm-workspace.yaml":
                    "packages:\n  - 'packages/*'\n  - \"sites/*\"   # the sites\n  - '!**/test/**'\n  - '!packages/legacy'\n",
                "packages/kit/package.json": Self.npm("@sveltejs/kit", "2.2.0"),
                "packages/package/package.json": Self.npm("@sveltejs/package", "2.0.0"),
                "packages/legacy/package.json": Self.npm("@sveltejs/legacy", "1.0.0"),
                "packages/adapter-node/package.json": Self.npm("@sveltejs/adapter-node", "5.0.1"),
                "packages/create-svelte/package.json": Self.npm("create-svelte", "6.0.0"),
                "packages/kit/test/package.json": Self.npm("test-app", "0.0.1", extra: #", "private": true"#),
                "sites/kit.svelte.dev/package.json": Self.npm("kit.svelte.dev", "0.1.0", extra: #", "private": true"#),
                "sites/playground/package.json": Self.npm("playground", "0.0.1", extra: #", "private": true"#),
            ])
        try repository.git("tag", "@sveltejs/kit@2.2.0")
        try repository.git("tag", "@sveltejs/adapter-node@5.0.1")
        try repository.git("tag", "@sveltejs/package@2.0.0")
        try repository.git("tag", "create-svelte@6.0.0")
        try repository.git("tag", "kit.svelte.dev@0.1.0")
        try repository.commit("feat: kit learns", files: ["packages/kit/index.js": "export {}\n"])
        try repository.commit("fix: the site", files: ["sites/playground/index.js": "export {}\n"])
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("tag-format = \"@sveltejs/{member}@{version}\""), "\(written)")
        #expect(written.contains("create-svelte = \"create-svelte@{version}\""), "\(written)")
        #expect(written.contains("\"kit.svelte.dev\" = \"kit.svelte.dev@{version}\""), "\(written)")
        #expect(!written.contains("test-app") && !written.contains("packages/legacy"), "\(written)")
        #expect(written.contains("members = [\"packages/adapter-node\", \"packages/create-svelte\","), "\(written)")
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        #expect(
            members.map(\.name).sorted() == [
                "adapter-node", "create-svelte", "kit", "kit.svelte.dev", "package", "playground",
            ], "\(members)")
        #expect(members.first { $0.name == "kit" }?.tag == "@sveltejs/kit@2.3.0", "\(members)")
        #expect(members.first { $0.name == "adapter-node" }?.next == nil, "\(members)")
        #expect(members.first { $0.name == "create-svelte" }?.next == nil, "\(members)")
        #expect(members.first { $0.name == "kit.svelte.dev" }?.next == nil, "\(members)")
        #expect(members.first { $0.name == "playground" }?.reason == "unpublished", "\(members)")
    }

    /// npm `workspaces` with changesets tags: the same reading as pnpm's file.
    @Test func npmWorkspacesWithChangesetsTagsAreMembersWithTheirScope() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "package.json": #"{"name": "root", "private": true, "workspaces": ["./packages/*"]}"#,
                "packages/cli/package.json": Self.npm("@changesets/cli", "2.27.1"),
                "packages/core/package.json": Self.npm("@changesets/core", "1.4.0"),
            ])
        try repository.git("tag", "@changesets/cli@2.27.1")
        try repository.git("tag", "@changesets/core@1.4.0")
        try repository.commit("fix: cli fix", files: ["packages/cli/index.js": "export {}\n"])
        #expect(try relctl(["init"], in: repository.url).status == 0)
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("members = [\"packages/*\"]"), "\(written)")
        #expect(written.contains("tag-format = \"@changesets/{member}@{version}\""), "\(written)")
        #expect(!written.contains("[workspace.tag-formats]"), "\(written)")
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        #expect(members.first { $0.name == "cli" }?.tag == "@changesets/cli@2.27.2", "\(members)")
        #expect(members.first { $0.name == "core" }?.next == nil, "\(members)")
    }

    /// `[workspace.tag-formats]` naming no member is refused, naming the key.
    @Test func aTagFormatsEntryNamingNoMemberIsRefused() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": """
                [project]
                name = "mono"

                [workspace]
                members = ["crates/*"]

                [workspace.tag-formats]
                cargo-binstal = "v{version}"

                """,
                "crates/cargo-binstall/Cargo.toml": Self.crate("cargo-binstall", "1.0.0"),
            ])
        let checked = try relctl(["plan"], in: repository.url)
        #expect(checked.status == 2, "\(checked)")
        #expect(checked.stderr.contains("[workspace.tag-formats] names `cargo-binstal`"), "\(checked)")
    }
}
