import Foundation
import RelctlBasics
import RelctlModel

/// `relctl release`: preflight (which resolves the `ReleaseIdentity`), a workspace (the locked
/// project, or a scratch clone on a dry run), then the stages in order. Each stage is timed and
/// reported; on a failure the completed stages are undone in reverse, unless the release was
/// already sealed. A dry run runs the same stages in the scratch clone, so it predicts the real run.
public struct ReleasePipeline: Sendable {
    let stages: [any ReleaseStage]

    /// The stages of a release, in order.
    public static let standardStages: [any ReleaseStage] = [
        HookStage(.before), BuildStage(), PackageStage(), ImageStage(), LinuxPackageStage(), RepositoryStage(),
        NpmStage(), MSIStage(), PythonWheelStage(), InstallerStage(),
        ChecksumStage(), ChannelStage(), SignStage(), ProvenanceStage(), NotesStage(),
        TagStage(), PushStage(), DistStage(), ImagePushStage(), HookStage(.after), PublishStage(),
        ChannelPublishStage(), RepositoryPublishStage(), NpmPublishStage(), PyPIPublishStage(),
    ]

    public init(stages: [any ReleaseStage] = ReleasePipeline.standardStages) {
        let problems = Self.contractProblems(stages)
        precondition(problems.isEmpty, "release stages break their contract: \(problems.joined(separator: "; "))")
        self.stages = stages
    }

    /// Needs or reads no earlier stage produces, facts produced twice, and stages that create or
    /// seal the release yet say they run alongside others: a stage list with any cannot run.
    static func contractProblems(_ stages: [any ReleaseStage]) -> [String] {
        var produced: Set<ReleaseFact> = []
        var problems: [String] = []
        for (index, stage) in stages.enumerated() {
            for fact in stage.needs.subtracting(produced).sorted() {
                problems.append("`\(stage.name)` needs \(fact.rawValue), which no earlier stage produces")
            }
            // Run alongside its producer, a stage reading a later stage's fact would see it or not
            // depending on the clock: it is handed only what earlier stages produced, so it never would.
            for fact in stage.reads.subtracting(produced).sorted() {
                let later = stages[(index + 1)...].first { $0.produces.contains(fact) }
                problems.append(
                    "`\(stage.name)` reads \(fact.rawValue), which "
                        + (later.map { "only the later stage `\($0.name)` produces" } ?? "no earlier stage produces"))
            }
            for fact in stage.produces.intersection(produced).sorted() {
                problems.append("`\(stage.name)` produces \(fact.rawValue) again")
            }
            if stage.runsAlongside, stage.sealsRelease || stage.needsPassingPreflight {
                problems.append("`\(stage.name)` creates or seals the release, so it cannot run alongside other stages")
            }
            produced.formUnion(stage.produces)
        }
        return problems
    }

    /// Runs the release. Problems come back in `ReleaseOutcome.error` (after the plan is
    /// complete, so a dry run can show everything it found); only unexpected errors are thrown.
    public func run(_ options: ReleaseOptions, config: RelctlConfig, context: Context) async throws -> ReleaseOutcome {
        var report = ReleaseReporter(options: options, config: config, context: context, stageCount: stages.count)

        // A release killed outright left its lock: roll back or resume what it did, and say which.
        let recovery =
            options.preflightOnly ? nil : await ReleaseRecovery.run(options, config: config, context: context)
        // The lock taken over from the killed release, until the workspace holds it.
        var heldLock = recovery?.lock
        defer { heldLock?.release() }

        let preflight = await report.preflight {
            await Self.preflight(options, config: config, context: context, recovery: recovery)
        }
        let preflightError = preflight.error
        guard !options.preflightOnly else {
            report.notRun(stages, detail: "preflight only")
            return report.finish(preflightError)
        }
        guard let identity = preflight.identity(config: config), preflight.ok || options.dryRun else {
            report.notRun(stages)
            return report.finish(preflightError)
        }

        // Where the stages work: the project itself (locked), or a scratch clone.
        let workspace: ReleaseWorkspace
        switch await report.step(
            options.dryRun ? "scratch" : "lock",
            {
                await Self.openWorkspace(
                    options, config: config, context: context, preflight: preflight, heldLock: heldLock)
            })
        {
        case .opened(let opened):
            workspace = opened
            heldLock = nil
        case .failed(let error):
            report.notRun(stages)
            let problems: [any RelctlError] = (preflightError.map { [$0] } ?? []) + [error]
            return report.finish(problems.count == 1 ? problems[0] : ProblemList(problems))
        }
        defer { workspace.close(keep: options.keep) }
        if options.dryRun, options.keep { report.plan.scratch = workspace.scratch?.path }

        var stageContext = workspace.context
        stageContext.console = report.progress.stageConsole()
        let run = ReleaseRun(
            options: options, identity: identity, config: workspace.config, context: stageContext,
            projectRoot: config.root,
            stagingDirectory: workspace.stagingDirectory, distDirectory: workspace.distDirectory,
            remoteURL: preflight.remoteURL,
            progress: report.progress, guards: InterruptGuards(), lock: workspace.lock, recovery: recovery
        )
        defer { run.guards.releaseAll() }
        var outputs = ReleaseOutputs()
        let failure = await runStages(run, &outputs, report: &report, preflightFailed: preflightError != nil)

        // A dry run writes in place (its scratch dist/ is the staging folder): what is there is
        // what the real run's dist stage would move into dist/.
        if options.dryRun, outputs.distFiles == nil {
            outputs.distFiles = DistStage.stagedNames(in: workspace.stagingDirectory)
        }
        report.record(
            outputs, identity: outputs.movedHead.map { identity.moved(to: $0.commit, time: $0.time) } ?? identity,
            dist: (options.dryRun && !options.keep) ? nil : workspace.distDirectory.path)
        let problems: [any RelctlError] = (preflightError.map { [$0] } ?? []) + (failure.map { [$0] } ?? [])
        return report.finish(problems.isEmpty ? nil : problems.count == 1 ? problems[0] : ProblemList(problems))
    }

    /// Every stage in order. A stage is skipped when it says so, when a fact it needs was not
    /// produced, or (on a dry run whose preflight failed) when it would create the tag. Stages
    /// that run alongside others overlap (see `StageSchedule`); each works on its own copy of the
    /// outputs, and what it produces is merged back as it ends, so every stage sees what it
    /// would see in a serial run. The first failure (in stage order) stops new stages; those
    /// still running finish, then what the completed stages did is undone, newest first, unless
    /// the release was sealed.
    private func runStages(
        _ run: ReleaseRun, _ outputs: inout ReleaseOutputs, report: inout ReleaseReporter, preflightFailed: Bool
    ) async -> (any RelctlError)? {
        var run = run
        var schedule = StageSchedule(
            stages: stages, overlap: !Self.serialRequested(run.context.environment),
            diagnostics: run.context.console.diagnostics)
        var failed: (index: Int, error: any Error)?
        await withTaskGroup(of: StageResult.self) { group in
            while true {
                // Start every stage that may start now, in stage order.
                while failed == nil, let index = schedule.nextStartable(run) {
                    let stage = stages[index]
                    if let skip = skipReason(stage, run, outputs, preflightFailed: preflightFailed) {
                        report.skipped(stage.name, detail: skip)
                        schedule.skipped(index)
                        continue
                    }
                    let started = report.begin(stage.name)
                    // A stage alone works on the outputs themselves (copied back as it ends); one
                    // alongside others on the facts it reads, its warnings held apart.
                    let warnings = StageSchedule.runsAlongside(stage, run) ? DiagnosticsEngine() : nil
                    let alongside = schedule.started(index, run, warnings: warnings)
                    let given = alongside ? outputs.only(stage.needs.union(stage.reads)) : outputs
                    // Its lines held until its turn (see `ReleaseProgress`): under its own header.
                    let stageRun =
                        warnings.map {
                            run.printing(to: run.progress.stageConsole(for: stage.name, diagnostics: $0))
                        } ?? run
                    group.addTask {
                        await ReleaseProgress.$stage.withValue(stage.name) {
                            var given = given
                            do {
                                let detail = try await stage.perform(stageRun, &given)
                                return StageResult(
                                    index: index, started: started, outputs: given, outcome: .success(detail))
                            } catch {
                                return StageResult(
                                    index: index, started: started, outputs: given, outcome: .failure(error))
                            }
                        }
                    }
                }
                guard let result = await group.next() else { break }
                let stage = stages[result.index]
                let alongside = schedule.isAlongside(result.index)
                schedule.ended(result.index)
                switch result.outcome {
                case .success(let detail):
                    for fact in stage.produces where !result.outputs.has(fact) {
                        preconditionFailure("stage `\(stage.name)` declared \(fact.rawValue) but did not produce it")
                    }
                    if alongside {
                        for fact in stage.produces { outputs.take(fact, from: result.outputs) }
                    } else {
                        outputs = result.outputs
                    }
                    report.ended(stage.name, .ok, since: result.started, detail: detail)
                    schedule.completed(result.index)
                    // Tag what is there: a hook that committed moves the release to its commit.
                    if let moved = outputs.movedHead, moved.commit != run.identity.commit {
                        run = run.releasing(run.identity.moved(to: moved.commit, time: moved.time))
                        report.moved(to: moved.commit)
                    }
                    // The release is out: an interrupt from here on must not take the tag back.
                    if stage.sealsRelease { run.guards.releaseAll() }
                case .failure(let error):
                    if !alongside { outputs = result.outputs }
                    report.ended(stage.name, .failed, since: result.started)
                    if failed.map({ result.index < $0.index }) ?? true { failed = (result.index, error) }
                }
            }
        }
        guard let failed else { return nil }
        report.notRun(schedule.notStarted)
        return await failure(
            of: stages[failed.index], failed.error, completed: schedule.completedStages, run, &outputs)
    }

    /// `RELCTL_SERIAL_STAGES=1` runs every stage alone, one after another (to compare with the
    /// overlapping run: the records and files are the same).
    static let serialVariable = "RELCTL_SERIAL_STAGES"

    static func serialRequested(_ environment: [String: String]) -> Bool {
        environment[serialVariable].map { !$0.isEmpty && $0 != "0" } ?? false
    }

    private func skipReason(
        _ stage: any ReleaseStage, _ run: ReleaseRun, _ outputs: ReleaseOutputs, preflightFailed: Bool
    ) -> String? {
        if let reason = stage.skipReason(run, outputs) { return reason }
        if run.options.rebuild, stage.needsPassingPreflight { return "a rebuild creates and publishes nothing" }
        if let missing = stage.needs.sorted().first(where: { !outputs.has($0) }) {
            return "no \(missing.rawValue) (\(run.identity.isTagOnly ? "tag-only release" : "not produced"))"
        }
        if run.isDryRun, preflightFailed, stage.needsPassingPreflight { return "preflight failed" }
        return nil
    }

    private func failure(
        of stage: any ReleaseStage, _ error: any Error, completed: [any ReleaseStage],
        _ run: ReleaseRun, _ outputs: inout ReleaseOutputs
    ) async -> any RelctlError {
        let cause = (error as? RelctlError)?.diagnostics ?? [Diagnostic("\(error)")]
        let code = (error as? RelctlError)?.exitCode ?? .failure
        if let rejected = error as? ReleaseError, case .pushRejected = rejected {
            // The push stage deleted the local tag and says so; the staged files go with the workspace.
            return rejected
        }
        if completed.contains(where: \.sealsRelease) {
            // Tagged and in dist/: the release is out, so nothing is taken back.
            let how = outputs.pushedTo != nil ? "tag pushed" : "tag created"
            let done =
                run.options.inTrain
                ? "\(run.tag) was tagged (\(how), dist/ complete) before `\(stage.name)` failed; `relctl train run` "
                    + "started this release, so the train now rolls it back with the rest of the train (the tag"
                    + (outputs.pushedTo != nil ? " here and on the remote" : "")
                    + ", any pin commit, the files in dist/); fix what failed and run the train again"
                : "\(run.tag) is released (\(how) and dist/ complete); only what follows failed, so finish it by hand"
            return ReleaseError.stageFailed(stage: stage.name, cause: cause, cleanup: [done], exitCode: code)
        }
        var undone: [String] = []
        if !run.isDryRun {
            for earlier in completed.reversed() { undone += await earlier.undo(run, &outputs) }
        }
        return ReleaseError.stageFailed(stage: stage.name, cause: cause, cleanup: undone, exitCode: code)
    }

    private static func preflight(
        _ options: ReleaseOptions, config: RelctlConfig, context: Context, recovery: ReleaseRecovery?
    ) async -> (PreflightReport, StageRecordDraft) {
        let report = await ReleasePreflight.check(options, config: config, context: context, recovery: recovery)
        if let lockURL = report.lockFile, let unreadable = ReleaseLock.unreadableLock(at: lockURL) {
            if options.dryRun {
                for line in unreadable.diagnostics { report.warn(line.description) }
            } else {
                report.fail(.failure, unreadable.diagnostics)
            }
        } else if let lockURL = report.lockFile, let holder = ReleaseLock.currentHolder(at: lockURL), !holder.isStale,
            recovery?.lock.map({ holder.isSameHolder(as: $0.holder) }) != true
        {
            if options.dryRun {
                report.warn("another release holds \(lockURL.path): \(holder.summary)")
            } else {
                report.fail(.failure, ReleaseError.locked(path: lockURL.path, holder: holder).diagnostics)
            }
        }
        for warning in report.warnings { context.console.warning(warning) }
        let draft = StageRecordDraft(
            ok: report.ok, detail: report.ok ? "all checks passed" : "\(report.problems.count) problem(s)")
        return (report, draft)
    }

    private static func openWorkspace(
        _ options: ReleaseOptions, config: RelctlConfig, context: Context,
        preflight: PreflightReport, heldLock: ReleaseLock?
    ) async -> (WorkspaceOpening, StageRecordDraft) {
        do {
            if options.dryRun, let topLevel = preflight.topLevel, let commit = preflight.commit {
                let workspace = try await ReleaseWorkspace.scratch(
                    config: config, context: context, topLevel: topLevel, commit: commit, tag: options.tag,
                    settings: preflight.gitSettings, kept: options.keep)
                return (
                    .opened(workspace),
                    StageRecordDraft(
                        ok: true, detail: "clone of \(commit.prefix(12)) in \(workspace.scratch?.path ?? "")")
                )
            }
            guard let lockFile = preflight.lockFile else {
                throw ReleaseError.notInRepository(path: config.root.path)
            }
            let workspace = try ReleaseWorkspace.project(
                config: config, context: context, tag: options.tag, commit: preflight.commit, lockFile: lockFile,
                heldLock: heldLock,
                onStale: { holder in
                    context.console.warning(
                        "took over a stale release lock left by \(holder.summary): that process is gone")
                })
            return (.opened(workspace), StageRecordDraft(ok: true, detail: "holding \(lockFile.lastPathComponent)"))
        } catch let error as RelctlError {
            return (.failed(error), StageRecordDraft(ok: false))
        } catch {
            return (.failed(ReleaseError.workspaceFailed(reason: "\(error)")), StageRecordDraft(ok: false))
        }
    }
}

/// How a stage the pipeline started ended, with the outputs it worked on.
private struct StageResult: Sendable {
    let index: Int
    let started: ReleaseReporter.Started
    let outputs: ReleaseOutputs
    let outcome: Result<String?, any Error>
}
