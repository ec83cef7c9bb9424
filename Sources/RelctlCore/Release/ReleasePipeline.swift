import Foundation

/// The result of a release: the plan/report, and the error to exit with (nil on success).
public struct ReleaseOutcome: Sendable {
    public var plan: ReleasePlan
    public var error: (any RelctlError)?
}

/// `relctl release`: preflight, lock, then the stages in order, each timed and reported; on a
/// failure the completed stages are undone in reverse. A dry run runs the same stages in a
/// scratch clone of the repository, so its result predicts the real run's.
public struct ReleasePipeline: Sendable {
    public var stages: [any ReleaseStage]

    /// The stages of a release, in order.
    public static let standardStages: [any ReleaseStage] = [
        HookStage(.before), BuildStage(), PackageStage(), ChecksumStage(), NotesStage(),
        TagStage(), PushStage(), PublishStage(), HookStage(.after),
    ]

    public init(stages: [any ReleaseStage] = ReleasePipeline.standardStages) {
        self.stages = stages
    }

    /// Runs the release. Problems come back in `ReleaseOutcome.error` (after the plan is
    /// complete, so a dry run can show everything it found); only unexpected errors are thrown.
    public func run(_ options: ReleaseOptions, config: RelctlConfig, context: Context) async throws -> ReleaseOutcome {
        let progress = ReleaseProgress(console: context.console, environment: context.environment)
        let started = context.clock.now()
        var plan = ReleasePlan(
            project: config.project.name, tag: options.tag, dryRun: options.dryRun, ok: false,
            signed: config.release.sign, push: options.push, remote: config.release.remote, command: options.realRunCommand
        )
        let total = stages.count + 2
        func finish(_ error: (any RelctlError)?) -> ReleaseOutcome {
            plan.ok = error == nil
            plan.problems = error?.diagnostics.map(\.description) ?? []
            plan.seconds = (context.clock.seconds(since: started) * 1000).rounded() / 1000
            if error != nil { for line in plan.problems { progress.error(line) } }
            progress.summary(plan.stages, total: plan.seconds)
            return ReleaseOutcome(plan: plan, error: error)
        }

        // Preflight.
        progress.begin("preflight", index: 1, of: total)
        let preflightStart = context.clock.now()
        var report = ReleasePreflight.check(options, config: config, context: context)
        let git = Git(directory: config.root, context: context)
        if let lockURL = try? ReleaseLock.url(for: git), let holder = ReleaseLock.currentHolder(at: lockURL), !holder.isStale {
            if options.dryRun {
                report.warnings.append("another release holds \(lockURL.path): \(holder.summary)")
            } else {
                report.fail(.failure, ReleaseError.locked(path: lockURL.path, holder: holder).diagnostics)
            }
        }
        plan.version = report.version?.description
        plan.commit = report.commit
        plan.branch = report.branch
        plan.warnings = report.warnings
        let preflightRecord = StageRecord(
            name: "preflight", status: report.ok ? .ok : .failed, seconds: context.clock.seconds(since: preflightStart),
            detail: report.ok ? "all checks passed" : "\(report.problems.count) problem(s)"
        )
        plan.stages.append(preflightRecord)
        progress.end(preflightRecord)
        for warning in report.warnings { context.console.warning(warning) }

        let preflightError = report.error
        if options.preflightOnly {
            plan.stages += stages.map { StageRecord(name: $0.name, status: .notRun, detail: "preflight only") }
            return finish(preflightError)
        }
        guard let version = report.version, let commit = report.commit, let topLevel = report.topLevel,
              report.ok || options.dryRun else {
            plan.stages += stages.map { StageRecord(name: $0.name, status: .notRun) }
            return finish(preflightError)
        }

        // Where the stages work: the project itself (locked), or a scratch clone.
        let workspaceName = options.dryRun ? "scratch" : "lock"
        progress.begin(workspaceName, index: 2, of: total)
        let workspaceStart = context.clock.now()
        let workspace: ReleaseWorkspace
        do {
            workspace = try options.dryRun
                ? ReleaseWorkspace.scratch(config: config, context: context, topLevel: topLevel, commit: commit, tag: options.tag)
                : ReleaseWorkspace.project(config: config, context: context, tag: options.tag, onStale: { holder in
                    context.console.warning("took over a stale release lock left by \(holder.summary): that process is gone")
                })
        } catch let error as RelctlError {
            let record = StageRecord(name: workspaceName, status: .failed, seconds: context.clock.seconds(since: workspaceStart))
            plan.stages.append(record)
            progress.end(record)
            plan.stages += stages.map { StageRecord(name: $0.name, status: .notRun) }
            return finish(error)
        }
        defer { workspace.close(keep: options.keep) }
        let workspaceRecord = StageRecord(
            name: workspaceName, status: .ok, seconds: context.clock.seconds(since: workspaceStart),
            detail: options.dryRun ? "clone of \(commit.prefix(12)) in \(workspace.scratch?.path ?? "")" : "holding \(ReleaseLock.fileName)"
        )
        plan.stages.append(workspaceRecord)
        progress.end(workspaceRecord)
        if options.dryRun, options.keep { plan.scratch = workspace.scratch?.path }

        var stageContext = workspace.context
        stageContext.console = progress.stageConsole()
        let run = ReleaseRun(
            options: options, config: workspace.config, context: stageContext, projectRoot: config.root, version: version,
            commit: commit, branch: report.branch, distDirectory: workspace.stagingDirectory, finalDistDirectory: workspace.distDirectory,
            progress: progress
        )
        defer { for id in run.interruptGuards { InterruptActions.shared.remove(id) } }

        var completed: [any ReleaseStage] = []
        var failure: (any RelctlError)?
        for (index, stage) in stages.enumerated() {
            if failure != nil {
                plan.stages.append(StageRecord(name: stage.name, status: .notRun))
                continue
            }
            var skip = stage.skipReason(run)
            if skip == nil, options.dryRun, preflightError != nil, stage is TagStage || stage is PushStage {
                skip = "preflight failed"
            }
            if let skip {
                let record = StageRecord(name: stage.name, status: .skipped, detail: skip)
                plan.stages.append(record)
                progress.end(record)
                continue
            }
            progress.begin(stage.name, index: index + 3, of: total)
            let stageStart = context.clock.now()
            do {
                let detail = try await stage.perform(run)
                let record = StageRecord(name: stage.name, status: .ok, seconds: context.clock.seconds(since: stageStart), detail: detail)
                plan.stages.append(record)
                progress.end(record)
                completed.append(stage)
                if stage is PublishStage {
                    // The release is out: an interrupt from here on must not take the tag back.
                    for id in run.interruptGuards { InterruptActions.shared.remove(id) }
                    run.interruptGuards.removeAll()
                }
            } catch {
                let record = StageRecord(name: stage.name, status: .failed, seconds: context.clock.seconds(since: stageStart))
                plan.stages.append(record)
                progress.end(record)
                let cause = (error as? RelctlError)?.diagnostics ?? [Diagnostic("\(error)")]
                let code = (error as? RelctlError)?.exitCode ?? .failure
                if let rejected = error as? ReleaseError, case .pushRejected = rejected {
                    // The push stage has already deleted the local tag and says so itself.
                    failure = rejected
                } else if completed.contains(where: { $0 is PublishStage }) {
                    // Tagged, pushed and in dist/: the release is out, so nothing is taken back.
                    let done = "\(options.tag) is released (tag\(run.tagPushed ? " pushed" : " created") and dist/ complete); only what follows failed, so finish it by hand"
                    failure = ReleaseError.stageFailed(stage: stage.name, cause: cause, cleanup: [done], exitCode: code)
                } else {
                    let undone = options.dryRun ? [] : completed.reversed().flatMap { $0.undo(run) }
                    failure = ReleaseError.stageFailed(stage: stage.name, cause: cause, cleanup: undone, exitCode: code)
                }
            }
        }
        plan.artifacts = run.artifacts
        plan.notes = run.notes
        plan.tagMessage = run.tagMessage
        plan.tagCreated = run.tagCreated && !options.dryRun
        plan.tagPushed = run.tagPushed
        plan.dist = (options.dryRun && !options.keep) ? nil : workspace.distDirectory.path
        let problems: [any RelctlError] = [preflightError, failure].compactMap { $0 }
        return finish(problems.isEmpty ? nil : problems.count == 1 ? problems[0] : ProblemList(problems))
    }
}
