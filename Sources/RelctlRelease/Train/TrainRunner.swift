import Foundation
import RelctlBasics
import RelctlModel
import RelctlProject

/// `relctl train run`: releases several repositories in dependency order by running relctl
/// itself (`release TAG`) in each. Before a repository is tagged its `[[repo.pin]]` values are
/// set and committed, so the tag goes on the commit that holds them; the branch and the tag are
/// then pushed together. Every repository is checked (pins, then the child's preflight) before
/// anything is tagged; when one fails, what this run pushed is taken back, newest first.
public struct TrainRunner: Sendable {
    /// The relctl binary to run in each repository (normally this very process's executable).
    var executable: URL
    var context: Context

    public init(executable: URL, context: Context) {
        self.executable = executable
        self.context = context
    }

    /// Runs the train. The report is complete even when the run failed (then `TrainFailure`
    /// carries it), and its `seconds` is the whole run's.
    public func run(workspace: Workspace, options: TrainRunOptions) async throws -> TrainReport {
        let started = context.clock.now()
        var report = TrainReport(tag: options.tag, dryRun: options.dryRun)
        report.jobs = options.jobs
        func seconds() -> Double { (context.clock.seconds(since: started) * 1000).rounded() / 1000 }
        do {
            try await run(workspace: workspace, options: options, into: &report)
        } catch var failure as TrainFailure {
            failure.report.seconds = seconds()
            throw failure
        }
        report.seconds = seconds()
        return report
    }

    private func run(workspace: Workspace, options: TrainRunOptions, into report: inout TrainReport) async throws {
        let ordered = workspace.waves().enumerated().flatMap { index, wave in wave.map { (index + 1, $0) } }
        report.repositories = ordered.map {
            TrainRepositoryResult(name: $1.name, path: $1.path, wave: $0, status: .notRun)
        }
        let (steps, pinProblems) = try await checkPins(ordered, workspace: workspace, options: options, into: &report)
        try await preflightAll(steps, alreadyFound: pinProblems, options: options, into: &report)
        if options.dryRun {
            report.ok = true
            return
        }
        try await releaseWaves(steps, options: options, into: &report)
        report.ok = true
    }

    /// Phase 1, what the train itself can check: pins match exactly once, a branch to push, and
    /// whether an earlier run of this train already released the repository. Bad pins stop the
    /// train here (exit 2); the other problems are returned to be reported with the preflight's.
    private func checkPins(
        _ ordered: [(Int, Workspace.Repository)], workspace: Workspace, options: TrainRunOptions,
        into report: inout TrainReport
    ) async throws -> ([TrainStep], [Diagnostic]) {
        let tag = options.tag
        var steps: [TrainStep] = []
        var inputProblems: [Diagnostic] = []
        var checkProblems: [Diagnostic] = []
        for (index, (wave, repository)) in ordered.enumerated() {
            do {
                let step = try await prepare(
                    repository, index: index, wave: wave, workspace: workspace, options: options)
                report.repositories[index].pins = step.pins?.changes ?? []
                report.repositories[index].note = step.note
                if step.trainPushes(options), step.branch == nil, step.action != .skip {
                    checkProblems.append(
                        Diagnostic(
                            "\(repository.name): HEAD is detached; check out the branch the pin commit belongs on (the train pushes HEAD to it)"
                        ))
                }
                steps.append(step)
            } catch let error as RelctlError {
                inputProblems += error.diagnostics
                report.repositories[index].status = .failed
                report.repositories[index].problems = error.diagnostics.map(\.description)
            }
        }
        if !inputProblems.isEmpty {
            throw TrainFailure(
                report: report,
                error: TrainError(
                    exitCode: .badInput,
                    diagnostics: [Diagnostic("train \(tag): the workspace's pins are wrong; nothing was changed")]
                        + inputProblems))
        }
        for step in steps {
            for change in step.pins?.changes ?? [] {
                context.console.info(
                    "    \(step.repository.name): \(options.dryRun ? "would pin" : "will pin") \(change.rendered)")
            }
            if let note = step.note { context.console.info("    \(step.repository.name): \(note)") }
            if step.action == .skip { report.repositories[step.index].status = .alreadyReleased }
        }
        return (steps, checkProblems)
    }

    /// Phase 2, the preflight (or dry run) of every repository still to release, before anything
    /// is tagged: its own release in each, read back from the `ReleasePlan` it prints.
    private func preflightAll(
        _ steps: [TrainStep], alreadyFound: [Diagnostic], options: TrainRunOptions, into report: inout TrainReport
    ) async throws {
        let tag = options.tag
        var checkProblems = alreadyFound
        let pending = steps.filter { $0.action == .release }
        let mode = options.dryRun ? ["--dry-run", "--push"] : ["--preflight-only", "--push"]
        context.console.info(
            options.dryRun
                ? "==> dry-running \(pending.count) repositories" : "==> preflight of \(pending.count) repositories")
        let checks = await ParallelJobs.map(pending, limit: options.jobs) { step in
            (
                step,
                try? await release(tag, in: step.repository, extra: mode, echo: options.dryRun)
            )
        }
        var worstChild: RelctlExitCode?
        for (step, result) in checks {
            let index = step.index
            guard let result else {
                checkProblems.append(
                    Diagnostic("\(step.repository.name): could not run relctl in \(step.repository.directory.path)"))
                report.repositories[index].status = .failed
                continue
            }
            report.repositories[index].seconds = result.seconds
            // `--set-version` fixes the manifests before tagging; their mismatch now is expected.
            let problems = result.problems.filter { !step.versionMismatches.contains($0.message) }
            if result.status == 0 || problems.isEmpty {
                report.repositories[index].status = options.dryRun ? .dryRunOK : .preflightOK
                context.console.info("    \(step.repository.name): ok")
            } else {
                report.repositories[index].status = .failed
                report.repositories[index].problems = problems.map(\.description)
                context.console.info("    \(step.repository.name): FAILED")
                checkProblems += problems.map { Diagnostic("\(step.repository.name): \($0.description)") }
                worstChild = worstChild.map { Self.moreMeaningful($0, result.exitCode) } ?? result.exitCode
            }
        }
        if !checkProblems.isEmpty {
            let what = options.dryRun ? "the dry run found problems" : "preflight failed; nothing was tagged"
            throw TrainFailure(
                report: report,
                error: TrainError(
                    exitCode: worstChild ?? .failure, diagnostics: [Diagnostic("train \(tag): \(what)")] + checkProblems
                ))
        }
    }

    /// Phase 3, release wave by wave, the repositories of a wave at once; on a failure, take back
    /// everything this run pushed (`TrainRollback.swift`).
    private func releaseWaves(
        _ steps: [TrainStep], options: TrainRunOptions, into report: inout TrainReport
    ) async throws {
        let tag = options.tag
        var attempts: [TrainAttempt] = []
        let guards = InterruptGuards()
        defer { guards.releaseAll() }
        let waves = Dictionary(grouping: steps.filter { $0.action != .skip }, by: \.wave).sorted { $0.key < $1.key }
        for (wave, members) in waves {
            context.console.info(
                "==> wave \(wave): releasing \(members.map(\.repository.name).joined(separator: ", "))")
            for step in members {
                // Armed before the child starts: on Ctrl-C, whatever tag this repository has by
                // then is this run's (the preflight proved it absent), even if the child was killed.
                let remote = step.remote, directory = step.repository.directory
                _ = guards.add { Self.deleteTagNow(tag, remote: remote, in: directory) }
            }
            let outcomes = await ParallelJobs.map(members, limit: options.jobs) { step in
                await releaseOne(step, options: options)
            }
            attempts += outcomes
            for outcome in outcomes { report.repositories[outcome.step.index] = outcome.result }
            let failed = outcomes.filter { $0.result.status == .failed }
            guard let first = failed.first else { continue }
            for failure in failed { context.console.error("\(failure.step.repository.name): release failed") }
            context.console.error("rolling back what this train pushed")
            await rollBack(tag, attempts.reversed(), into: &report)
            var lines = [
                Diagnostic(
                    "train \(tag) stopped at \(failed.map(\.step.repository.name).joined(separator: ", ")) (wave \(wave))"
                )
            ]
            lines += failed.flatMap(\.failure)
            lines += report.notRolledBack.map { Diagnostic("NOT rolled back: \($0)") }
            throw TrainFailure(
                report: report,
                error: TrainError(
                    exitCode: failed.map(\.exitCode).reduce(first.exitCode, Self.moreMeaningful), diagnostics: lines))
        }
    }

    /// 1 (a check failed: the thing checked is wrong) is more telling than 2 (bad input) when
    /// several repositories fail differently: the user learns a real check failed, and every
    /// bad input line is still printed. Exit 2 only when every failure is bad input.
    static func moreMeaningful(_ lhs: RelctlExitCode, _ rhs: RelctlExitCode) -> RelctlExitCode {
        lhs == .failure || rhs == .failure ? .failure : max(lhs, rhs)
    }

    /// Reads what the train needs from one repository before changing anything.
    func prepare(
        _ repository: Workspace.Repository, index: Int, wave: Int, workspace: Workspace, options: TrainRunOptions
    ) async throws -> TrainStep {
        var local = context
        local.workingDirectory = repository.directory
        let config = try? ConfigLoader.load(path: nil, context: local)
        let tag = options.tag
        // Read once: the version for the pins, and (with --set-version) the manifests bump will fix.
        let examined = config.map {
            ReleaseIdentity.examine(tag, config: $0, manifests: options.setVersion ? .compared : .unread)
        }
        let version = examined?.version?.description ?? Self.plainVersion(of: tag)
        let git = Git(directory: repository.directory, context: context)
        var step = await TrainStep(
            index: index, wave: wave, repository: repository, remote: config?.release.remote ?? "origin",
            branch: try? git.currentBranch(), version: version)
        if !repository.pins.isEmpty {
            step.pins = try PinPlan.make(for: repository, tag: tag, version: version, workspaceFile: workspace.path)
        }
        if options.setVersion, let validation = try? examined?.checked.get().validation {
            step.versionMismatches = validation.mismatchError?.diagnostics.map(\.message) ?? []
        }
        // Resume: after the pins, the commit to tag is HEAD when they are all in place already.
        let pinsInPlace = (step.pins?.satisfied ?? true) && step.versionMismatches.isEmpty
        guard pinsInPlace, let head = try? await git.commit(of: "HEAD") else { return step }
        let remoteTag = try? await git.remoteTag(tag, remote: step.remote)
        if let remoteTag, remoteTag.commit == head {
            step.action = .skip
            step.note =
                "\(tag) is already on \(step.remote) at HEAD \(head.prefix(12)), the commit this run would tag; skipped"
        } else if remoteTag == nil, let localTag = await git.localTag(tag), localTag.commit == head {
            step.action = .pushOnly
            step.note =
                "\(tag) is already tagged locally at HEAD \(head.prefix(12)) (an interrupted run?); the train pushes it"
        }
        return step
    }

    /// `v1.2.0` → `1.2.0`, for a repository whose config cannot say.
    static func plainVersion(of tag: String) -> String {
        if tag.hasPrefix("v"), tag.dropFirst().first?.isNumber == true { return String(tag.dropFirst()) }
        return tag
    }

    /// Pins, release and push of one repository; never throws: the outcome says what happened.
    func releaseOne(_ step: TrainStep, options: TrainRunOptions) async -> TrainAttempt {
        let name = step.repository.name
        let git = Git(directory: step.repository.directory, context: context)
        var attempt = TrainAttempt(
            step: step,
            result: TrainRepositoryResult(name: name, path: step.repository.path, wave: step.wave, status: .failed))
        attempt.result.pins = step.pins?.changes ?? []
        attempt.result.note = step.note
        do {
            if step.action == .release {
                try await commitPins(step, options: options, git: git, into: &attempt)
                let trainPushes = step.trainPushes(options)
                try await runRelease(step, options: options, trainPushes: trainPushes, git: git, into: &attempt)
                if !trainPushes {
                    attempt.result.status = .released
                    return attempt
                }
            } else {
                attempt.createdTag = await git.localTag(options.tag)
                attempt.result.commit = attempt.createdTag?.commit
            }
            try await pushBranchAndTag(step, tag: options.tag, git: git, into: &attempt)
        } catch let failure as StepFailure {
            attempt.result.status = .failed
            attempt.result.problems = failure.lines
            attempt.failure = failure.lines.map { Diagnostic("\(name): \($0)") }
            attempt.exitCode = failure.code
            return attempt
        } catch {
            attempt.result.status = .failed
            attempt.result.problems = ["\(error)"]
            attempt.failure = [Diagnostic("\(name): \(error)")]
            return attempt
        }
        attempt.result.status = .released
        return attempt
    }

    /// Why one repository's step stopped: the lines to report and the exit code.
    private struct StepFailure: Error {
        var lines: [String]
        var code: RelctlExitCode = .failure
    }

    /// Lockstep versions (`--set-version`), then the pins, in one commit.
    private func commitPins(
        _ step: TrainStep, options: TrainRunOptions, git: Git, into attempt: inout TrainAttempt
    ) async throws {
        let tag = options.tag
        do {
            var paths: [String] = []
            var pinPlan: PinPlan?
            if options.setVersion {
                let bump = try await context.processes.run(
                    Command(
                        executable.path, ["bump", "--set", step.version, "--write"],
                        directory: step.repository.directory, environment: context.environment))
                guard bump.succeeded else {
                    throw StepFailure(lines: ["`relctl bump --set \(step.version) --write` failed: \(bump.outputTail)"])
                }
                paths += try await git.changedPaths()
            }
            if step.pins != nil {
                // Read afresh: the files are the same unless someone edited them meanwhile.
                let plan = try PinPlan.make(
                    for: step.repository, tag: tag, version: step.version, workspaceFile: step.repository.path)
                try plan.write(in: step.repository.directory)
                attempt.result.pins = plan.changes
                paths += plan.changedPaths
                pinPlan = plan
            }
            paths = Array(Set(paths)).sorted()
            guard !paths.isEmpty else { return }
            let message =
                pinPlan.map {
                    $0.satisfied
                        ? "chore(release): set version \(step.version) for \(tag)\n"
                        : $0.commitMessage(tag: tag)
                }
                ?? "chore(release): set version \(step.version) for \(tag)\n"
            let pinCommit = try await git.commitPaths(paths, message: message)
            attempt.pinCommit = pinCommit
            attempt.result.pinCommit = pinCommit
            context.console.info(
                "    [\(step.repository.name)] committed \(paths.joined(separator: ", ")) as \(pinCommit.prefix(12)) (chore(release): pin … to \(tag))"
            )
        } catch let failure as StepFailure {
            throw failure
        } catch let error as RelctlError {
            throw StepFailure(lines: error.diagnostics.map(\.description), code: error.exitCode)
        } catch {
            throw StepFailure(lines: ["could not set the pins: \(error)"])
        }
    }

    /// The repository's own release, as a child; records what it created for the rollback.
    private func runRelease(
        _ step: TrainStep, options: TrainRunOptions, trainPushes: Bool, git: Git, into attempt: inout TrainAttempt
    ) async throws {
        let tag = options.tag
        let result: ChildResult
        do {
            // `--in-train`: the child's failure messages say the train takes the release back.
            result = try await release(
                tag, in: step.repository, extra: (trainPushes ? [] : ["--push"]) + ["--in-train"], echo: true)
        } catch {
            throw StepFailure(lines: ["could not run relctl: \(error)"])
        }
        attempt.result.seconds = result.seconds
        attempt.result.commit = result.plan?.commit
        if result.status == 0 || result.plan?.neverTagged != true {
            attempt.createdTag = await git.localTag(tag)
        }
        attempt.distFiles = result.plan?.movedFiles(in: step.repository.directory) ?? []
        if !trainPushes, result.plan?.tagPushed == true { attempt.result.push = "release" }
        guard result.status == 0 else {
            throw StepFailure(lines: result.problems.map(\.description), code: result.exitCode)
        }
    }

    /// The train's push: the branch with the pin commit and the tag on it, together.
    private func pushBranchAndTag(
        _ step: TrainStep, tag: String, git: Git, into attempt: inout TrainAttempt
    ) async throws {
        let name = step.repository.name
        guard let branch = step.branch else { throw StepFailure(lines: ["HEAD is detached; nothing pushed"]) }
        do {
            let (result, atomic) = try await git.pushBranchAndTag(branch: branch, tag: tag, remote: step.remote)
            if !atomic {
                context.console.warning(
                    "\(name): \(step.remote) does not support `git push --atomic`; pushed \(branch) then \(tag) one after the other"
                )
            }
            // Whatever reached the remote must be known to the rollback, even on a failure.
            if let remoteTag = try? await git.remoteTag(tag, remote: step.remote),
                remoteTag.object == attempt.createdTag?.object
            {
                attempt.result.push = atomic ? "atomic" : "separate"
            }
            if let pin = attempt.pinCommit,
                await (try? git.runUnchecked(["ls-remote", "--exit-code", step.remote, "refs/heads/\(branch)"]))?
                    .stdoutText
                    .hasPrefix(pin) == true
            {
                attempt.pinPushed = true
            }
            guard result.succeeded else {
                throw StepFailure(lines: [
                    "\(step.remote) refused the push of \(branch) and \(tag): \(result.outputTail); pull, then run the train again"
                ])
            }
            attempt.pinPushed = attempt.pinCommit != nil
            context.console.info(
                "    [\(name)] pushed \(branch) and \(tag) to \(step.remote)\(atomic ? " (atomic)" : "")")
        } catch let failure as StepFailure {
            throw failure
        } catch {
            throw StepFailure(lines: ["could not push \(branch) and \(tag): \(error)"])
        }
    }
}

/// How `relctl train run` runs.
public struct TrainRunOptions: Sendable {
    var tag: String
    var dryRun = false
    /// Repositories of one wave released at once.
    var jobs = 1
    /// `--set-version`: set every repository's manifests to the train's version first
    /// (`relctl bump --set VERSION --write`), committed with the pins.
    var setVersion = false

    public init(tag: String, dryRun: Bool = false, jobs: Int = 1, setVersion: Bool = false) {
        self.tag = tag
        self.dryRun = dryRun
        self.jobs = max(1, jobs)
        self.setVersion = setVersion
    }
}

/// Why a train stopped.
public struct TrainError: RelctlError {
    public var exitCode: RelctlExitCode = .failure
    public var diagnostics: [Diagnostic]
}

/// A failed train: the report (for `--json`) and the error to exit with.
public struct TrainFailure: Error, Sendable {
    public var report: TrainReport
    public var error: TrainError
}
