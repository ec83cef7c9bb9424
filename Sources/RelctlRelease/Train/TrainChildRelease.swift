import Foundation
import RelctlBasics
import RelctlModel

/// The train runs each repository's release as a child `relctl release TAG --json` (its own lock,
/// working directory, environment and Ctrl-C handling), and reads back the `ReleasePlan` the child
/// prints and its exit status: never its stderr, which is only echoed for the user.
extension TrainRunner {
    /// What one repository's `relctl release --json` returned: its exit status and the plan it
    /// printed (the same `ReleasePlan` type; nil only when the child died before printing it).
    struct ChildResult {
        var status: Int32
        var plan: ReleasePlan?
        var seconds: Double

        /// The child's exit code in contract terms: its bad input (2) stays bad input for the train.
        var exitCode: RelctlExitCode { status == RelctlExitCode.badInput.rawValue ? .badInput : .failure }

        var problems: [Diagnostic] {
            if let plan, !plan.problemDetails.isEmpty { return plan.problemDetails }
            guard status != 0 else { return [] }
            return plan == nil
                ? [Diagnostic("relctl release exited with status \(status) without its report (killed, or it crashed)")]
                : [Diagnostic("relctl release exited with status \(status)")]
        }
    }

    /// Runs `relctl release TAG ARGS --json` in the repository, echoing its progress prefixed
    /// with the repository's name.
    func release(
        _ tag: String, in repository: Workspace.Repository, extra: [String], echo: Bool
    ) async throws -> ChildResult {
        let start = context.clock.now()
        let stdout = StageOutput(limit: 100_000)
        let console = context.console
        let name = repository.name
        var environment = context.environment
        environment["NO_COLOR"] = "1"
        let command = Command(
            executable.path, ["release", tag, "--json"] + extra, directory: repository.directory,
            environment: environment)
        let status = try await context.processes.stream(command) { stream, line in
            switch stream {
            case .stdout: stdout.append(line)
            case .stderr:
                // Workflow commands (`::group::`, `::error::`) only work at the start of a line.
                if echo { console.info(line.hasPrefix("::") ? line : "    [\(name)] \(line)") }
            }
        }
        let plan = try? JSONDecoder().decode(ReleasePlan.self, from: Data(stdout.text.utf8))
        return ChildResult(
            status: status, plan: plan,
            seconds: (context.clock.seconds(since: start) * 1000).rounded() / 1000)
    }
}
