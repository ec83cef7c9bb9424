import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// Runs `workflow_runner.py` (GitHub Actions' execution of a tag-push workflow, on this machine)
/// and reads its report. docs/ci-local-runner.md says what it emulates.
public enum WorkflowRunner {
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "workflow_runner.py")

    public struct Report: Decodable, Sendable {
        public struct Job: Decodable, Sendable {
            public struct Step: Decodable, Sendable {
                public var name: String
                public var result: String
            }
            public var id: String
            public var name: String
            public var matrix: [String: String]?
            public var result: String
            public var reason: String?
            /// The job's `outputs:` (a leg that ran; empty when it failed).
            public var outputs: [String: String]?
            public var steps: [Step]
        }
        public var result: String
        public var jobs: [Job]
    }

    /// The run's exit status, its report (nil when the runner refused the workflow: exit 2) and
    /// its log (every step's output, on stderr).
    public struct Outcome: Sendable, CustomStringConvertible {
        public var status: Int32
        public var report: Report?
        public var log: String
        public var description: String { "workflow runner exit \(status)\n\(log)" }
    }

    /// Runs `workflow` for `tag` as pushed to `remote`, in a fresh folder under `work`; `jobs`, when
    /// given, are the only jobs run (the others are reported skipped).
    public static func run(
        workflow: URL, remote: URL, tag: String, work: URL, repository: String = "acme/project", token: String = "",
        environment: [String: String] = [:], runAsLinux: [String] = [], jobs: [String] = [],
        secrets: [String: String] = [:]
    ) throws -> Outcome {
        try run(
            workflow: workflow, remote: remote, push: ["--tag", tag], work: work, repository: repository, token: token,
            environment: environment, runAsLinux: runAsLinux, jobs: jobs, secrets: secrets)
    }

    /// Runs `workflow` for a push to `branch` of `remote` (a workspace's workflow).
    public static func run(
        workflow: URL, remote: URL, branch: String, work: URL, repository: String = "acme/project",
        token: String = "", environment: [String: String] = [:]
    ) throws -> Outcome {
        try run(
            workflow: workflow, remote: remote, push: ["--branch", branch], work: work, repository: repository,
            token: token, environment: environment, runAsLinux: [], jobs: [])
    }

    private static func run(
        workflow: URL, remote: URL, push: [String], work: URL, repository: String, token: String,
        environment: [String: String], runAsLinux: [String], jobs: [String], secrets: [String: String] = [:]
    ) throws -> Outcome {
        let folder = work.appendingPathComponent("run-\(UUID().uuidString.prefix(8))")
        var arguments =
            [script.path, "--workflow", workflow.path, "--remote", remote.path] + push + [
                "--work", folder.path, "--repository", repository, "--token", token,
            ]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { arguments += ["--env", "\(name)=\(value)"] }
        for (name, value) in secrets.sorted(by: { $0.key < $1.key }) { arguments += ["--secret", "\(name)=\(value)"] }
        for label in runAsLinux { arguments += ["--run-as-linux", label] }
        for job in jobs { arguments += ["--job", job] }
        let result = try RelctlTestSupport.run("python3", arguments)
        let report = try? JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        return Outcome(status: result.status, report: report, log: result.stderr)
    }
}
