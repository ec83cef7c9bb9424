import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The generated `.gitlab-ci.yml` run job by job on this machine by
/// `Tests/Support/gitlab_pipeline_runner.py` (GitLab's stage order, `needs`, `artifacts:paths`,
/// the Runner's tag-only fetch and GIT_DEPTH). The publish job is skipped: it talks to a GitLab
/// API (the GitLab publisher's own tests cover it against a stand-in); what it would publish,
/// the merge job's dist/, is judged here with sha256sum.
@Suite("GitLab pipeline run", .timeLimit(.minutes(60)), .removesTemporaries)
struct GitLabPipelineRunCLITests {
    static let runner = DogfoodCLITests.repositoryRoot.appendingPathComponent("Tests/Support/gitlab_pipeline_runner.py")
    /// Puts the relctl under test on PATH in every job (the runner passes RELCTL_UNDER_TEST).
    static let setup = #"export PATH="$(dirname "$RELCTL_UNDER_TEST"):$PATH""#

    struct Report: Decodable {
        struct Job: Decodable {
            var id: String
            var result: String
            var reason: String?
        }
        var result: String
        var jobs: [Job]
    }

    /// Runs the committed pipeline for `tag`; the report and the merge job's artifacts folder.
    static func runPipeline(
        _ repository: GitRepository, remote: TemporaryDirectory, tag: String, work: TemporaryDirectory,
        runAsLinux: [String] = []
    ) throws -> (status: Int32, report: Report?, log: String, dist: URL) {
        var arguments = [
            runner.path, "--pipeline", repository.url.appendingPathComponent(".gitlab-ci.yml").path, "--remote",
            remote.path, "--tag", tag, "--work", work.path, "--skip-job", "publish", "--env",
            "RELCTL_UNDER_TEST=\(relctlBinary.path)",
        ]
        for label in runAsLinux { arguments += ["--run-as-linux", label] }
        let result = try run("python3", arguments)
        let report = try? JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        return (result.status, report, result.stderr, work.url.appendingPathComponent("artifacts/merge/dist"))
    }

    /// Generates and commits the pipeline, pushes main and `tag`.
    static func commitPipelineAndTag(_ repository: GitRepository, tag: String) throws {
        let generate = try relctl(["ci", "generate", "--provider", "gitlab"], in: repository.url)
        guard generate.status == 0 else { throw TestFailure("ci generate failed: \(generate)") }
        try repository.commit("ci: GitLab pipeline")
        try repository.git("push", "-q", "origin", "main")
        try repository.git("tag", "-a", tag, "-m", tag)
        try repository.git("push", "-q", "origin", tag)
    }

    /// Four targets on Linux jobs: plan → four builds → merge, artifacts passed by `needs`; the
    /// merged dist/ checks with sha256sum and holds the notes of every commit since the previous
    /// tag, 26 commits back (the merge job's GIT_DEPTH 0: the Runner clones 20 deep by default).
    @Test func aFourTargetPipelineBuildsAndMergesTheRelease() throws {
        let repository = try GitRepository()
        let remote = try repository.addBareRemote()
        let config = """
            [project]
            name = "multi"

            [[version]]
            path = "VERSION"

            [build]
            command = '''\(WorkflowFixture.standInBuild)'''
            binaries = ["hello"]
            binary-dir = "out/{target}"

            \(WorkflowFixture.multiTargets)
            [archive]
            name = "{project}-{tag}-{target}"
            files = ["README.md"]

            [ci]
            providers = ["gitlab"]
            setup = ['\(Self.setup)']

            """
        try repository.commit(
            "feat: the first feature",
            files: [
                "relctl.toml": config, "VERSION": "1.0.0\n", "README.md": "# multi\n", ".gitignore": "out/\ndist/\n",
            ])
        try repository.git("tag", "-a", "v0.9.0", "-m", "v0.9.0")
        try repository.git("push", "-q", "origin", "v0.9.0")
        // More commits since the previous tag than the Runner's default clone depth (20).
        for index in 1...24 { try repository.commit("feat: change \(index)") }
        try repository.commit("feat: say hello", files: ["src/hello.txt": "hello\n"])
        try Self.commitPipelineAndTag(repository, tag: "v1.0.0")

        let work = try TemporaryDirectory(prefix: "relctl-gitlab-run")
        let outcome = try Self.runPipeline(repository, remote: remote, tag: "v1.0.0", work: work)
        #expect(outcome.status == 0, "\(outcome.log)")
        let report = try #require(outcome.report, "\(outcome.log)")
        #expect(
            report.jobs.map(\.id) == [
                "plan", "build:x86_64-unknown-linux-gnu", "build:aarch64-unknown-linux-musl",
                "build:x86_64-pc-windows-msvc", "build:aarch64-apple-darwin", "merge", "publish",
            ])
        #expect(report.jobs.dropLast().allSatisfy { $0.result == "success" }, "\(outcome.log)")
        #expect(report.jobs.last?.reason == "skipped by --skip-job")

        let sums = try String(contentsOf: outcome.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        let listed = sums.split(separator: "\n").map { String($0.split(separator: " ").last ?? "") }
        for target in [
            "x86_64-unknown-linux-gnu", "aarch64-unknown-linux-musl", "x86_64-pc-windows-msvc", "aarch64-apple-darwin",
        ] {
            #expect(listed.contains { $0.hasPrefix("multi-v1.0.0-\(target).") }, "\(sums)")
        }
        let check = try run("sha256sum", ["-c", "--strict", "SHA256SUMS"], in: outcome.dist)
        #expect(check.status == 0, "\(check)")
        let notes = try String(contentsOf: outcome.dist.appendingPathComponent("RELEASE_NOTES.md"), encoding: .utf8)
        // Every commit since v0.9.0, the oldest 26 deep, and nothing before it.
        #expect(
            notes.contains("say hello") && notes.contains("- change 1 (") && notes.contains("- change 24 (")
                && !notes.contains("the first feature"), "\(notes)")

        // A tag of another format starts no pipeline.
        try repository.git("tag", "-a", "nightly-1", "-m", "nightly")
        try repository.git("push", "-q", "origin", "nightly-1")
        let otherWork = try TemporaryDirectory(prefix: "relctl-gitlab-run")
        let other = try Self.runPipeline(repository, remote: remote, tag: "nightly-1", work: otherWork)
        #expect(other.status == 1 && other.report?.result == "not-triggered", "\(other.log)")
    }

    /// The runner judges, it does not wave through: a failed build job keeps merge (which needs
    /// it) from running, and a keyword it does not emulate stops the run (exit 2).
    @Test func aFailedBuildSkipsTheMergeAndAnUnknownKeywordIsRefused() throws {
        let repository = try GitRepository()
        let remote = try repository.addBareRemote()
        try MatrixFixtures.project(
            in: repository.directory, targets: ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-musl"],
            build:
                "[build]\ncommand = \"case {target} in aarch64*) exit 3 ;; esac; mkdir -p out && touch out/demo\"\nbinaries = [\"demo\"]\nbinary-dir = \"out\"",
            extra: "[ci]\nsetup = ['\(Self.setup)']\n")
        try repository.commit("feat: start")
        try Self.commitPipelineAndTag(repository, tag: "v1.2.3")

        let work = try TemporaryDirectory(prefix: "relctl-gitlab-run")
        let failed = try Self.runPipeline(repository, remote: remote, tag: "v1.2.3", work: work)
        #expect(failed.status == 1, "\(failed.log)")
        let jobs = try #require(failed.report?.jobs, "\(failed.log)")
        let results = Dictionary(uniqueKeysWithValues: jobs.map { ($0.id, $0.result) })
        #expect(
            results == [
                "plan": "success", "build:x86_64-unknown-linux-gnu": "success",
                "build:aarch64-unknown-linux-musl": "failed", "merge": "skipped", "publish": "skipped",
            ], "\(failed.log)")
        #expect(jobs.first { $0.id == "merge" }?.reason == "needs build:aarch64-unknown-linux-musl, which ended failed")

        let pipeline = repository.url.appendingPathComponent(".gitlab-ci.yml")
        let text = try String(contentsOf: pipeline, encoding: .utf8)
        try text.replacingOccurrences(of: "  stage: merge\n", with: "  stage: merge\n  before_script:\n    - true\n")
            .write(to: pipeline, atomically: true, encoding: .utf8)
        let again = try TemporaryDirectory(prefix: "relctl-gitlab-run")
        let refused = try Self.runPipeline(repository, remote: remote, tag: "v1.2.3", work: again)
        #expect(refused.status == 2 && refused.log.contains("merge: `before_script` is not emulated"), "\(refused.log)")
    }

    /// Examples/velostream: five targets, Linux packages and channels. Its macOS jobs (bash on
    /// GitLab's macOS runner) run here as Linux; its Windows job's script is PowerShell, so the
    /// copy builds that target on a Linux runner (a cross build, as the Windows warning suggests).
    @Test func velostreamExampleRunsThroughItsPipeline() throws {
        let repository = try GitRepository()
        let copy = try run(
            "cp",
            [
                "-R", GitLabPipelineCLITests.examples.appendingPathComponent("velostream").path + "/.",
                repository.url.path,
            ])
        try #require(copy.status == 0, "\(copy)")
        let remote = try repository.addBareRemote()
        var config = try repository.directory.read("relctl.toml")
        config = config.replacingOccurrences(
            of: "triple = \"x86_64-pc-windows-msvc\"",
            with: "triple = \"x86_64-pc-windows-msvc\"\nrunner = \"ubuntu-latest\"")
        try repository.directory.write("relctl.toml", config + "\n[ci]\nsetup = ['\(Self.setup)']\n")
        try repository.commit("chore: import the example")
        try Self.commitPipelineAndTag(repository, tag: "v1.0.0")

        let work = try TemporaryDirectory(prefix: "relctl-gitlab-run")
        let outcome = try Self.runPipeline(
            repository, remote: remote, tag: "v1.0.0", work: work, runAsLinux: ["saas-macos-medium-m1"])
        #expect(outcome.status == 0, "\(outcome.log)")
        let report = try #require(outcome.report, "\(outcome.log)")
        #expect(report.jobs.filter { $0.id.hasPrefix("build:") && $0.result == "success" }.count == 5, "\(outcome.log)")
        let check = try run("sha256sum", ["-c", "--strict", "SHA256SUMS"], in: outcome.dist)
        #expect(check.status == 0, "\(check)")
        let files = try FileManager.default.contentsOfDirectory(atPath: outcome.dist.path)
        #expect(files.contains { $0.hasSuffix(".deb") } && files.contains { $0.hasSuffix(".rpm") }, "\(files)")
        #expect(files.contains { $0.hasSuffix("-flake.tar.gz") }, "\(files)")
        #expect(files.contains("RELEASE_NOTES.md"), "\(files)")
        // The build jobs' npm packages and wheels, listed by the merge job's `relctl checksum`.
        let sums = try String(contentsOf: outcome.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        for name in ExampleRegistriesCLITests.npmPackages + ExampleRegistriesCLITests.wheels {
            #expect(sums.contains("  \(name)\n"), "\(name) not in\n\(sums)")
        }
    }
}
