import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// relctl's own release workflow (.github/workflows/release.yml, from relctl.toml), run by
/// Tests/Support/workflow_runner.py on the committed HEAD of this checkout: its plan job's
/// "Install relctl" step installs the packages of `RelctlBuildRequirements` and builds relctl in
/// release mode from the checkout under test, and the relctl it built checks the tag and expands
/// the matrix (issue 24).
///
/// One job only: a release build of relctl from scratch is the longest thing the suite does (see
/// docs/ci-local-runner.md for what it costs), and each further job of this workflow is a fresh
/// runner that builds it again. The suite of its own and `.startsAtOnce` (a thread of its own
/// from the run's first second, not a place in the shared test threads' queue) let it run beside
/// all the others instead of after some of them. Skip it while iterating with
/// `swift test --skip OwnWorkflowRunCLITests`.
@Suite("relctl's own workflow, run", .timeLimit(.minutes(60)), .removesTemporaries)
struct OwnWorkflowRunCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The install step runs `sudo apt-get`: as root the runner's `sudo` shim runs it, otherwise
    /// sudo must not ask for a password (as on GitHub's runners).
    @Test(.requires(.packageInstall), .startsAtOnce)
    func ownPlanJobBuildsRelctlFromTheCheckoutAndRunsIt() throws {
        let version = RelctlVersion.version
        let tag = "v" + version
        let remote = try TemporaryDirectory(prefix: "relctl-own-remote")
        // The committed HEAD, tagged in a bare copy: this checkout is left as it is.
        let clone = try run("git", ["clone", "-q", "--bare", "--no-local", Self.root.path, remote.path])
        try #require(clone.status == 0, "\(clone)")
        let tagged = try run("git", ["-C", remote.path, "tag", "-f", tag, "HEAD"])
        try #require(tagged.status == 0, "\(tagged)")
        let work = try TemporaryDirectory(prefix: "relctl-own-runner")

        let outcome = try WorkflowRunner.run(
            workflow: Self.root.appendingPathComponent(".github/workflows/release.yml"), remote: remote.url, tag: tag,
            work: work.url, repository: "relctl/relctl", jobs: ["plan"])
        let jobs = try #require(outcome.report?.jobs, "\(outcome)")
        #expect(jobs.map(\.id) == ["plan", "build", "release"], "\(outcome)")
        let plan = try #require(jobs.first)
        #expect(plan.result == "success", "\(outcome)")
        #expect(
            plan.steps.map(\.name) == [
                "Check out", "Install relctl", "Check the tag against the manifests", "Expand the target matrix",
            ])
        #expect(plan.steps.allSatisfy { $0.result == "success" }, "\(plan.steps)")
        #expect(jobs.dropFirst().allSatisfy { $0.result == "skipped" && $0.reason?.contains("not selected") == true })

        // The matrix the built relctl expanded is the one the relctl under test expands.
        let underTest = try relctl(["matrix", "--format", "github"], in: Self.root)
        try #require(underTest.status == 0, "\(underTest)")
        #expect(plan.outputs?["matrix"] == underTest.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "\(plan)")

        // The relctl the step built: a release build of the tagged version, in the job's checkout.
        let runs = try FileManager.default.contentsOfDirectory(atPath: work.url.path).filter { $0.hasPrefix("run-") }
        try #require(runs.count == 1, "\(runs)")
        let jobsFolder = work.url.appendingPathComponent("\(runs[0])/jobs")
        let planFolders = try FileManager.default.contentsOfDirectory(atPath: jobsFolder.path).filter {
            $0.hasPrefix("plan-")
        }
        try #require(planFolders.count == 1, "\(planFolders)")
        let built = jobsFolder.appendingPathComponent("\(planFolders[0])/workspace/.build/release/relctl")
        let reported = try run(built.path, ["--version"])
        #expect(reported.status == 0 && reported.stdout.contains(version), "\(reported)")
        #expect(outcome.log.contains("Compiling RelctlArtifacts"), "the step compiled relctl")
    }
}
