import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The GitLab pipeline `relctl ci generate` writes for a `[workspace]` (issue 54; refused with
/// exit 2 before), run by Tests/Support/gitlab_pipeline_runner.py for pushes to main: the plan
/// job writes the child pipeline (`relctl ci pending --format gitlab`) and the trigger job runs
/// it; nothing pending is one job saying so; after a merged release commit, one build job per
/// pending member and target, then one release job that tags, pushes and publishes every pending
/// member to the GitLab stand-in from the binaries the build jobs made.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct GitLabWorkspacePipelineRunCLITests {
    struct Report: Decodable {
        struct Job: Decodable {
            var id: String
            var result: String
            var reason: String?
            var pipeline: String?
        }
        var result: String
        var jobs: [Job]
    }

    static func coreConfig(_ publish: String) -> String {
        """
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

        [publish]
        \(publish)

        """
    }

    @Test func pendingMembersAreBuiltAndReleasedByTheChildPipeline() async throws {
        // Named `mono.git`, so `$CI_PROJECT_URL.git` (what the release job pushes to) is the remote.
        let folder = try TemporaryDirectory(prefix: "relctl-gitlab-remote")
        let remote = folder.url.appendingPathComponent("mono.git")
        #expect(try run("git", ["init", "-q", "--bare", "-b", "main", remote.path]).status == 0)
        let server = try ForgeStandIn(.gitlab, tags: [], gitDirectory: remote)
        defer { server.stop() }
        let repository = try GitRepository()
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[workspace]\nmembers = [\"crates/*\"]\n\n[ci]\nproviders = [\"gitlab\"]\nsetup = ['\(GitLabPipelineRunCLITests.setup)']\n",
                ".gitignore": "dist/\nout/\n",
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"1.0.0\"\n",
                "crates/core/relctl.toml": Self.coreConfig(server.configLine),
                "crates/cli/Cargo.toml": "[package]\nname = \"cli\"\nversion = \"0.3.0\"\n",
                "crates/cli/relctl.toml": "[project]\nname = \"cli\"\n\n[publish]\n\(server.configLine)\n",
            ])
        try repository.git("tag", "-a", "core-v1.0.0", "-m", "core 1.0.0")
        try repository.git("tag", "-a", "cli-v0.3.0", "-m", "cli 0.3.0")
        // Refused with exit 2 before: a workspace's pipeline was written for GitHub only.
        let generated = try relctl(["ci", "generate"], in: repository.url)
        try #require(generated.status == 0, "\(generated)")
        let pipeline = repository.url.appendingPathComponent(".gitlab-ci.yml")
        let text = try String(contentsOf: pipeline, encoding: .utf8)
        #expect(text.contains("relctl ci pending --format gitlab > relctl-pending.yml"), "\(text)")
        #expect(text.contains("strategy: depend") && text.contains("$CI_COMMIT_BRANCH =~ /^main$/"), "\(text)")
        #expect(try relctl(["ci", "generate", "--check"], in: repository.url).status == 0)
        try repository.commit("ci: the GitLab pipeline")
        try repository.git("remote", "add", "origin", remote.path)
        try repository.git("push", "-q", "origin", "main", "--tags")

        func runPipeline(branch: String = "main") throws -> (status: Int32, report: Report?, log: String) {
            let work = try TemporaryDirectory(prefix: "relctl-gitlab-run")
            defer { work.remove() }
            var arguments = [
                GitLabPipelineRunCLITests.runner.path, "--pipeline", pipeline.path, "--remote", remote.path,
                "--branch", branch, "--work", work.path, "--project-path", ForgeStandIn.gitlabProject,
            ]
            let environment = [
                "RELCTL_UNDER_TEST": relctlBinary.path, "GITLAB_API_URL": server.apiURL,
                "GITLAB_TOKEN": ForgeStandIn.gitlabToken,
                "CI_PROJECT_URL": "file://" + folder.url.appendingPathComponent("mono").path,
            ]
            for (name, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["--env", "\(name)=\(value)"] }
            let result = try run("python3", arguments)
            return (result.status, try? JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8)), result.stderr)
        }
        func releases() async throws -> [String: [String: Any]] {
            let state = try #require(try await server.state() as? [String: Any])
            let list = state["releases"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: list.compactMap { r in (r["tag_name"] as? String).map { ($0, r) } })
        }

        // Nothing pending: the child pipeline is one job saying so; nothing is released.
        let idle = try runPipeline()
        #expect(idle.status == 0, "\(idle.log)")
        #expect(
            idle.report?.jobs.map { "\($0.pipeline ?? "-")/\($0.id):\($0.result)" }
                == ["-/plan:success", "-/release:success", "release/nothing-pending:success"], "\(idle.log)")
        #expect(try await releases().isEmpty)

        // A feature in core, a fix in cli, and the release commit a release merge request merges.
        try repository.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        try repository.commit("fix: cli says it louder", files: ["crates/cli/src/main.rs": "fn main() {}\n"])
        let bumped = try relctl(["bump", "--write"], in: repository.url)
        try #require(bumped.status == 0 && bumped.stdout == "cli 0.3.1\ncore 1.1.0\n", "\(bumped)")
        try repository.commit("chore: release cli-v0.3.1, core-v1.1.0")
        try repository.git("push", "-q", "origin", "main")
        // The pipeline and the child pipeline the plan job writes are valid by GitLab's own schema.
        let schema = try TemporaryDirectory(prefix: "relctl-gitlab-schema")
        let child = try relctl(["ci", "pending", "--format", "gitlab"], in: repository.url)
        #expect(child.status == 0 && child.stdout.contains("build:core:x86_64-unknown-linux-gnu:"), "\(child)")
        try child.stdout.write(to: schema.url.appendingPathComponent("child.yml"), atomically: true, encoding: .utf8)
        try text.write(to: schema.url.appendingPathComponent("parent.yml"), atomically: true, encoding: .utf8)
        try GitLabPipelineCLITests.validate(schema, file: "child.yml")
        try GitLabPipelineCLITests.validate(schema, file: "parent.yml")

        let released = try runPipeline()
        #expect(released.status == 0, "\(released.log)")
        let jobs = try #require(released.report?.jobs, "\(released.log)")
        #expect(
            jobs.map { "\($0.pipeline ?? "-")/\($0.id):\($0.result)" } == [
                "-/plan:success", "-/release:success",
                "release/build:core:x86_64-unknown-linux-gnu:success",
                "release/build:core:aarch64-unknown-linux-musl:success", "release/release:success",
            ], "\(released.log)")
        let remoteTags = try run("git", ["-C", remote.path, "tag", "--list"]).stdout
        #expect(remoteTags.contains("core-v1.1.0\n") && remoteTags.contains("cli-v0.3.1\n"), "\(remoteTags)")
        let published = try await releases()
        #expect(Set(published.keys) == ["core-v1.1.0", "cli-v0.3.1"], "\(published.keys)")
        // The release job packaged what the build jobs made (--artifacts), it did not build again.
        #expect(released.log.contains("prebuilt binaries from "), "\(released.log.suffix(3000))")
        let links = ((published["core-v1.1.0"]?["assets"] as? [String: Any])?["links"] as? [[String: Any]]) ?? []
        let names = Set(links.compactMap { $0["name"] as? String })
        for target in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-musl"] {
            #expect(names.contains("core-1.1.0-\(target).tar.gz"), "\(names)")
        }

        // Released: the next push finds nothing pending; a push to another branch starts nothing.
        let again = try runPipeline()
        #expect(again.status == 0, "\(again.log)")
        #expect(again.report?.jobs.last?.id == "nothing-pending", "\(again.log)")
        try repository.git("push", "-q", "origin", "main:feature")
        let other = try runPipeline(branch: "feature")
        #expect(other.status == 1 && other.report?.result == "not-triggered", "\(other.log)")
    }
}
