import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The workflow `relctl ci generate` writes for a `[workspace]` (issue 42), run by the local
/// runner for pushes to main: nothing pending runs no build and releases nothing; after a merged
/// release commit, the plan names the pending members, one build job per member and target builds
/// the binaries, and the release job releases every pending member from them, tags pushed to the
/// remote and releases published to the GitHub stand-in; a re-run finds nothing pending.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct WorkspaceWorkflowRunCLITests {
    static let coreConfig = """
        [project]
        name = "core"

        [build]
        command = '''\(WorkflowFixture.standInBuild)'''
        binaries = ["hello"]
        binary-dir = "out/{target}"

        [[target]]
        triple = "x86_64-unknown-linux-gnu"

        [[target]]
        triple = "aarch64-unknown-linux-musl"
        runner = "ubuntu-24.04"

        """

    @Test func pendingMembersAreBuiltPerTargetAndReleasedTogetherFromTheBranchWorkflow() async throws {
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[workspace]\nmembers = [\"crates/*\"]\n\n[ci]\nsetup = ['''\(WorkflowFixture.setup)''']\n",
                ".gitignore": "dist/\nout/\n",
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"1.0.0\"\n",
                "crates/core/relctl.toml": Self.coreConfig,
                "crates/cli/Cargo.toml": "[package]\nname = \"cli\"\nversion = \"0.3.0\"\n",
            ])
        try repository.git("tag", "-a", "core-v1.0.0", "-m", "core 1.0.0")
        try repository.git("tag", "-a", "cli-v0.3.0", "-m", "cli 0.3.0")
        let generated = try relctl(["ci", "generate"], in: repository.url)
        try #require(generated.status == 0, "\(generated)")
        let workflow = repository.url.appendingPathComponent(".github/workflows/release.yml")
        let text = try String(contentsOf: workflow, encoding: .utf8)
        #expect(
            text.contains("relctl ci pending --format github") && text.contains("release --pending --push --publish"))
        try repository.commit("ci: the release workflow")
        let remote = try repository.addBareRemote()
        try repository.git("push", "-q", "origin", "main", "--tags")
        let standIn = try GitHubStandIn(repository: "acme/mono", tags: [], gitDirectory: remote.url)
        defer { standIn.stop() }

        func runWorkflow() throws -> WorkflowRunner.Outcome {
            let work = try TemporaryDirectory(prefix: "relctl-runner")
            defer { work.remove() }
            return try WorkflowRunner.run(
                workflow: workflow, remote: remote.url, branch: "main", work: work.url, repository: "acme/mono",
                token: GitHubStandIn.token,
                environment: ["GITHUB_API_URL": standIn.apiURL, "RELCTL_UNDER_TEST": relctlBinary.path])
        }

        // Nothing pending: the plan runs, the build and release jobs are skipped by their `if:`.
        let idle = try runWorkflow()
        #expect(idle.status == 0, "\(idle)")
        #expect(
            idle.report?.jobs.map { "\($0.id):\($0.result)" } == ["plan:success", "build:skipped", "release:skipped"])
        #expect(try await standIn.releases().isEmpty)

        // A feature in core, a fix in cli, and the release commit a release pull request merges.
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repository.commit("fix: cli says it louder", files: ["crates/cli/src/main.rs": "fn main() {}\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        try #require(bumped.status == 0 && bumped.stdout == "cli 0.3.1\ncore 1.1.0\n", "\(bumped)")
        try repository.commit("chore: release cli-v0.3.1, core-v1.1.0")
        try repository.git("push", "-q", "origin", "main")

        let released = try runWorkflow()
        #expect(released.status == 0, "\(released)")
        let jobs = try #require(released.report?.jobs, "\(released)")
        let builds = jobs.filter { $0.id == "build" }
        #expect(
            Set(builds.compactMap { $0.matrix?["target"] })
                == ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-musl"], "\(released)")
        #expect(builds.allSatisfy { $0.matrix?["member"] == "core" && $0.result == "success" }, "\(released)")
        #expect(jobs.last?.id == "release" && jobs.last?.result == "success", "\(released)")

        let remoteTags = try run("git", ["-C", remote.path, "tag", "--list"]).stdout
        #expect(remoteTags.contains("core-v1.1.0\n") && remoteTags.contains("cli-v0.3.1\n"), "\(remoteTags)")
        let releases = try await standIn.releases()
        let byTag = Dictionary(uniqueKeysWithValues: releases.map { ($0.tag_name, $0) })
        #expect(Set(byTag.keys) == ["core-v1.1.0", "cli-v0.3.1"], "\(releases.map(\.tag_name))")
        let coreAssets = Set(byTag["core-v1.1.0"]?.assets.map(\.name) ?? [])
        for target in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-musl"] {
            #expect(coreAssets.contains("core-1.1.0-\(target).tar.gz"), "\(coreAssets)")
        }
        #expect(coreAssets.contains("SHA256SUMS"), "\(coreAssets)")
        #expect(byTag["cli-v0.3.1"]?.assets.isEmpty == true, "cli is tag-only")
        #expect(byTag["core-v1.1.0"]?.body?.contains("core learns a trick") == true)
        #expect(byTag["core-v1.1.0"]?.body?.contains("louder") == false, "core's notes are core's own")

        // The release job packaged what the build jobs made (--artifacts), it did not build again.
        let log = released.log
        #expect(log.contains("prebuilt binaries from "), "\(log.suffix(2000))")
        // A re-run of the same push finds nothing pending and writes nothing.
        let before = try await standIn.log().count
        let again = try runWorkflow()
        #expect(again.status == 0, "\(again)")
        #expect(
            again.report?.jobs.map { "\($0.id):\($0.result)" } == ["plan:success", "build:skipped", "release:skipped"])
        let writes = try await standIn.log().dropFirst(before).filter { $0.method != "GET" }
        #expect(writes.isEmpty, "\(writes.map { "\($0.method) \($0.path)" })")
    }
}
