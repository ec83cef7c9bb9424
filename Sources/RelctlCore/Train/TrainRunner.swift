import Foundation

/// `relctl train run`: releases several repositories in dependency order by running relctl
/// itself (`release TAG --push`) in each. Every repository is preflighted before anything is
/// tagged; when one fails, the tags this run pushed are deleted again, remote and local, in
/// reverse order.
public struct TrainRunner: Sendable {
    /// The relctl binary to run in each repository (normally this very process's executable).
    public var executable: URL
    public var context: Context

    public init(executable: URL, context: Context) {
        self.executable = executable
        self.context = context
    }

    /// The child release's `--json` document, as much of it as the train needs.
    struct ChildPlan: Decodable {
        var ok: Bool
        var remote: String
        var tagPushed: Bool
        var problems: [String]
        var stages: [StageRecord]

        /// True when the child stopped before its tag stage ran, so any tag there now is not this run's.
        var neverTagged: Bool {
            guard let tag = stages.first(where: { $0.name == TagStage().name }) else { return false }
            return tag.status == .notRun || tag.status == .skipped
        }
    }

    struct ChildResult {
        var status: Int32
        var plan: ChildPlan?
        var stderrTail: String
        var seconds: Double

        /// The child's exit code in contract terms: its bad input (2) stays bad input for the train.
        var exitCode: ExitCode { status == ExitCode.badInput.rawValue ? .badInput : .failure }

        var problems: [String] {
            if let plan, !plan.problems.isEmpty { return plan.problems }
            return stderrTail.split(separator: "\n").filter { $0.hasPrefix("relctl: error:") }.map(String.init)
                + (status != 0 && plan == nil ? ["relctl exited with status \(status)"] : [])
        }
    }

    /// Runs the train. With `dryRun`, every repository gets `release TAG --dry-run --push` and
    /// nothing is tagged. The report is complete even when the run failed (`report.ok` false).
    public func run(tag: String, workspace: Workspace, dryRun: Bool) throws -> TrainReport {
        let started = context.clock.now()
        let waves = workspace.waves()
        var report = TrainReport(tag: tag, dryRun: dryRun)
        let ordered = waves.enumerated().flatMap { index, wave in wave.map { (index + 1, $0) } }
        report.repositories = ordered.map { TrainRepositoryResult(name: $1.name, path: $1.path, wave: $0, status: .notRun) }
        defer { report.seconds = (context.clock.seconds(since: started) * 1000).rounded() / 1000 }

        // 1. Preflight every repository (or dry-run it) before anything is tagged.
        let mode = dryRun ? ["--dry-run", "--push"] : ["--preflight-only", "--push"]
        context.console.info(dryRun ? "==> dry-running \(ordered.count) repositories" : "==> preflight of \(ordered.count) repositories")
        var firstFailures: [Diagnostic] = []
        var worst = ExitCode.failure
        for (index, (_, repository)) in ordered.enumerated() {
            let result = try release(tag, in: repository, extra: mode, echo: dryRun)
            report.repositories[index].seconds = result.seconds
            if result.status == 0 {
                report.repositories[index].status = dryRun ? .dryRunOK : .preflightOK
                context.console.info("    \(repository.name): ok")
            } else {
                report.repositories[index].status = .failed
                report.repositories[index].problems = result.problems
                context.console.info("    \(repository.name): FAILED")
                firstFailures += result.problems.map { Diagnostic("\(repository.name): \(Self.strip($0))") }
                worst = max(worst, result.exitCode)
            }
        }
        if !firstFailures.isEmpty {
            let what = dryRun ? "the dry run found problems" : "preflight failed; nothing was tagged"
            throw TrainFailure(report: report, error: TrainError(exitCode: worst, diagnostics: [Diagnostic("train \(tag): \(what)")] + firstFailures))
        }
        if dryRun {
            report.ok = true
            return report
        }

        // 2. Release wave by wave; on a failure, roll back what this run pushed.
        var attempted: [(index: Int, repository: Workspace.Repository, remote: String)] = []
        var guards: [Int] = []
        defer { for id in guards { InterruptActions.shared.remove(id) } }
        for (index, (wave, repository)) in ordered.enumerated() {
            context.console.info("==> wave \(wave): releasing \(repository.name)")
            // Armed before the child starts: on Ctrl-C, whatever tag this repository has by then
            // is this run's (the preflight proved it absent), even if the child was killed mid-way.
            let configuredRemote = Self.remote(of: repository, context: context)
            guards.append(InterruptActions.shared.add { Self.deleteTagNow(tag, remote: configuredRemote, in: repository.directory) })
            let result = try release(tag, in: repository, extra: ["--push"], echo: true)
            let remote = result.plan?.remote ?? configuredRemote
            // A child that stopped before tagging (say, someone pushed the tag since the train's
            // preflight) made nothing to roll back, and a tag found there is someone else's.
            if result.status == 0 || result.plan?.neverTagged != true {
                attempted.append((index, repository, remote))
            }
            report.repositories[index].seconds = result.seconds
            if result.status == 0 {
                report.repositories[index].status = .released
                continue
            }
            report.repositories[index].status = .failed
            report.repositories[index].problems = result.problems
            context.console.error("\(repository.name): release failed; rolling back the tags this train pushed")
            rollBack(tag, attempted.reversed(), into: &report)
            var lines = [Diagnostic("train \(tag) stopped at \(repository.name) (wave \(wave))")]
            lines += result.problems.map { Diagnostic("\(repository.name): \(Self.strip($0))") }
            lines += report.notRolledBack.map { Diagnostic("NOT rolled back: \($0)") }
            throw TrainFailure(report: report, error: TrainError(exitCode: result.exitCode, diagnostics: lines))
        }
        report.ok = true
        return report
    }

    /// Deletes `tag` on the remote and locally in each repository, newest first. The preflight
    /// proved the tag absent everywhere and each of these children reached its tag stage (or
    /// died without saying), so any tag found now was created by this run.
    func rollBack(_ tag: String, _ attempted: [(index: Int, repository: Workspace.Repository, remote: String)], into report: inout TrainReport) {
        for (index, repository, remote) in attempted {
            let git = Git(directory: repository.directory, context: context)
            var touched = false
            if (try? git.remoteTagExists(tag, remote: remote)) ?? true {
                let result = try? git.deleteRemoteTag(tag, remote: remote)
                if result?.succeeded == true, (try? git.remoteTagExists(tag, remote: remote)) == false {
                    report.rolledBack.append("\(repository.name): deleted \(tag) on \(remote)")
                    touched = true
                } else {
                    let why = result.map { PushStage.tail($0) } ?? "git could not run"
                    report.notRolledBack.append("\(repository.name): \(tag) on \(remote) (\(why)); delete it with `git -C \(repository.directory.path) push \(remote) :refs/tags/\(tag)`")
                }
            }
            if git.localTagExists(tag) {
                if git.deleteLocalTag(tag) {
                    report.rolledBack.append("\(repository.name): deleted local tag \(tag)")
                    touched = true
                } else {
                    report.notRolledBack.append("\(repository.name): local tag \(tag); delete it with `git -C \(repository.directory.path) tag -d \(tag)`")
                }
            }
            if touched, report.repositories[index].status == .released { report.repositories[index].status = .rolledBack }
        }
        for line in report.rolledBack { context.console.info("    rolled back: \(line)") }
        for line in report.notRolledBack { context.console.error("not rolled back: \(line)") }
    }

    /// The repository's `[release] remote` (origin when its config cannot be read).
    static func remote(of repository: Workspace.Repository, context: Context) -> String {
        var local = context
        local.workingDirectory = repository.directory
        return (try? ConfigLoader.load(path: nil, context: local))?.release.remote ?? "origin"
    }

    /// Interrupt-time rollback of one repository, with git started directly.
    static func deleteTagNow(_ tag: String, remote: String, in directory: URL) {
        if InterruptActions.git(["ls-remote", "--exit-code", "--tags", remote, "refs/tags/\(tag)"], in: directory) {
            _ = InterruptActions.git(["push", remote, ":refs/tags/\(tag)"], in: directory)
        }
        if InterruptActions.git(["rev-parse", "--verify", "--quiet", "refs/tags/\(tag)"], in: directory) {
            _ = InterruptActions.git(["tag", "-d", tag], in: directory)
        }
    }

    /// Runs `relctl release TAG ARGS --json` in the repository, echoing its progress prefixed
    /// with the repository's name.
    func release(_ tag: String, in repository: Workspace.Repository, extra: [String], echo: Bool) throws -> ChildResult {
        let start = context.clock.now()
        let stdout = StageOutput(limit: 100_000)
        let stderr = StageOutput(limit: 60)
        let console = context.console
        let name = repository.name
        var environment = context.environment
        environment["NO_COLOR"] = "1"
        let command = Command(executable.path, ["release", tag, "--json"] + extra, directory: repository.directory, environment: environment)
        let status = try context.processes.stream(command) { stream, line in
            switch stream {
            case .stdout: stdout.append(line)
            case .stderr:
                stderr.append(line)
                // Workflow commands (`::group::`, `::error::`) only work at the start of a line.
                if echo { console.info(line.hasPrefix("::") ? line : "    [\(name)] \(line)") }
            }
        }
        let plan = try? JSONDecoder().decode(ChildPlan.self, from: Data(stdout.text.utf8))
        return ChildResult(status: status, plan: plan, stderrTail: stderr.text, seconds: (context.clock.seconds(since: start) * 1000).rounded() / 1000)
    }

    /// `relctl: error: MSG` → `MSG`.
    static func strip(_ line: String) -> String {
        line.hasPrefix("relctl: error: ") ? String(line.dropFirst("relctl: error: ".count)) : line
    }
}

/// A failed train: the report (for `--json`) and the error to exit with.
public struct TrainFailure: Error, Sendable {
    public var report: TrainReport
    public var error: TrainError
}
