import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl init` in a repository of several packages offers a `[workspace]` (issue 42): active
/// when the members release on their own, a commented suggestion when they look released in
/// lockstep, and nothing for a single package.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct InitWorkspaceCLITests {
    static func cargo(_ name: String, _ version: String) -> String {
        "[package]\nname = \"\(name)\"\nversion = \"\(version)\"\n"
    }

    static let cargoWorkspace = [
        "Cargo.toml": "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n",
        "crates/core/Cargo.toml": cargo("core", "1.0.0"),
        "crates/core/src/lib.rs": "pub fn core() {}\n",
        "crates/cli/Cargo.toml": cargo("cli", "0.3.0"),
        "crates/cli/src/lib.rs": "pub fn cli() {}\n",
    ]

    @Test func aCargoWorkspaceWithMemberTagsGetsAnActiveWorkspaceThatPlansEachMember() throws {
        let repository = try GitRepository()
        try repository.commit("chore: start", files: Self.cargoWorkspace)
        try repository.git("tag", "core-v1.0.0")
        try repository.git("tag", "cli-v0.3.0")
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        let initialized = try relctl(["init"], in: repository.url)
        #expect(initialized.status == 0, "\(initialized)")
        let written = try repository.directory.read("relctl.toml")
        #expect(
            written.contains("[workspace]\nmembers = [\"crates/*\"]\ntag-format = \"{member}-v{version}\"\n"),
            "\(written)")
        #expect(
            written.contains("`cli-v0.3.0` name a member") || written.contains("`core-v1.0.0` name a member"),
            "\(written)")
        #expect(!written.contains("[[version]]") && !written.contains("\n[build]"), "\(written)")
        // The file works as written: the plan reads each member from its own tags.
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        #expect(members.map(\.name) == ["cli", "core"], "\(members)")
        #expect(members.first { $0.name == "core" }?.tag == "core-v1.1.0", "\(members)")
        #expect(members.first { $0.name == "cli" }?.next == nil, "\(members)")
    }

    @Test func npmWorkspacesReleasedInLockstepGetASuggestionOnly() throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "package.json": #"{"name": "mono", "version": "2.0.0", "private": true, "workspaces": ["packages/*"]}"#,
                "packages/a/package.json": #"{"name": "@mono/a", "version": "2.0.0"}"#,
                "packages/b/package.json": #"{"name": "@mono/b", "version": "2.0.0"}"#,
            ])
        try repository.git("tag", "v2.0.0")
        #expect(try relctl(["init"], in: repository.url).status == 0)
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("tag-format = \"v{version}\""), "\(written)")
        #expect(written.contains("# [workspace]\n# members = [\"packages/*\"]"), "\(written)")
        #expect(!written.contains("\n[workspace]"), "lockstep stays one version line: \(written)")
        #expect(try relctl(["check"], in: repository.url).status == 0)
    }

    @Test func untaggedMembersWithDifferentVersionsAndAChartsFolderAreMembers() throws {
        let repository = try GitRepository()
        var files = Self.cargoWorkspace
        files["charts/app/Chart.yaml"] = "apiVersion: v2\nname: app\nversion: 0.1.0\nappVersion: \"1.0.0\"\n"
        try repository.commit("chore: start", files: files)
        #expect(try relctl(["init"], in: repository.url).status == 0)
        let written = try repository.directory.read("relctl.toml")
        #expect(written.contains("members = [\"crates/*\", \"charts/*\"]"), "\(written)")
        let (result, members) = try MemberPlanDocument.run(in: repository.url)
        #expect(result.status == 0, "\(result)")
        #expect(members.map(\.name).sorted() == ["app", "cli", "core"], "\(members)")
    }

    @Test func aSinglePackageGetsNoWorkspace() throws {
        let repository = try GitRepository()
        try repository.commit("chore: start", files: ["Cargo.toml": Self.cargo("one", "1.0.0"), "src/lib.rs": "\n"])
        #expect(try relctl(["init"], in: repository.url).status == 0)
        #expect(!(try repository.directory.read("relctl.toml")).contains("workspace]"))
    }
}
