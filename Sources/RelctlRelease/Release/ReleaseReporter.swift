import Foundation
import RelctlBasics
import RelctlModel

/// Keeps the release's plan and its progress display in step: every step and stage begins,
/// ends or is skipped through here, so the plan `--json` prints and the lines on the terminal
/// always say the same thing.
struct ReleaseReporter {
    var plan: ReleasePlan
    let progress: ReleaseProgress
    private let clock: any WallClock
    private let diagnostics: DiagnosticsEngine
    private let started: Date
    /// Preflight and workspace, then the stages.
    private let total: Int
    private var position = 0

    /// An entry that has begun: when, and where its record goes in the plan.
    struct Started: Sendable {
        let date: Date
        /// Its index in `plan.stages`: overlapping stages end in any order, their records stay in stage order.
        let slot: Int
        /// Where it starts for `--profile`.
        let mark: WorkProfile.Mark?
    }

    init(options: ReleaseOptions, config: RelctlConfig, context: Context, stageCount: Int) {
        progress = ReleaseProgress(console: context.console, environment: context.environment)
        clock = context.clock
        diagnostics = context.console.diagnostics
        started = context.clock.now()
        total = stageCount + 2
        plan = ReleasePlan(
            project: config.project.name, tag: options.tag, dryRun: options.dryRun, ok: false,
            signed: config.release.sign, push: options.push, remote: config.release.remote,
            command: options.realRunCommand
        )
    }

    /// Runs one pipeline step (preflight, workspace) as a numbered, timed entry.
    mutating func step<T>(_ name: String, _ body: () async -> (T, StageRecordDraft)) async -> T {
        let start = begin(name)
        let (value, draft) = await body()
        ended(name, draft.ok ? .ok : .failed, since: start, detail: draft.detail)
        return value
    }

    /// The preflight's findings that belong in the plan.
    mutating func preflight(_ body: () async -> (PreflightReport, StageRecordDraft)) async -> PreflightReport {
        let report = await step("preflight", body)
        plan.version = report.version?.description
        plan.commit = report.commit
        plan.branch = report.branch
        return report
    }

    /// Starts the next numbered entry, its record in place until it ends.
    mutating func begin(_ name: String) -> Started {
        position += 1
        progress.begin(name, index: position, of: total)
        plan.stages.append(StageRecord(name: name, status: .notRun))
        return Started(date: clock.now(), slot: plan.stages.count - 1, mark: WorkProfile.shared.mark())
    }

    mutating func ended(_ name: String, _ status: StageStatus, since start: Started, detail: String? = nil) {
        let record = StageRecord(
            name: name, status: status, seconds: clock.seconds(since: start.date), detail: detail)
        WorkProfile.shared.endSection(name, since: start.mark)
        plan.stages[start.slot] = record
        progress.end(record)
    }

    mutating func skipped(_ name: String, detail: String) {
        position += 1
        let record = StageRecord(name: name, status: .skipped, detail: detail)
        plan.stages.append(record)
        progress.end(record, label: "[\(position)/\(total)]")
    }

    mutating func notRun(_ stages: some Sequence<any ReleaseStage>, detail: String? = nil) {
        plan.stages += stages.map { StageRecord(name: $0.name, status: .notRun, detail: detail) }
    }

    /// The release moved to another commit (a hook committed).
    mutating func moved(to commit: String) {
        plan.commit = commit
    }

    /// What the stages produced, for the plan.
    mutating func record(_ outputs: ReleaseOutputs, identity: ReleaseIdentity, dist: String?) {
        plan.artifacts = outputs.artifacts
        plan.images = outputs.pushedImages ?? outputs.images ?? []
        plan.notes = outputs.notes
        plan.tagMessage = outputs.tag?.message
        plan.tagCreated = outputs.tag != nil && !plan.dryRun
        plan.tagPushed = outputs.pushedTo != nil && !plan.dryRun
        plan.dist = dist
        plan.distFiles = outputs.distFiles ?? []
    }

    /// Closes the plan: status, problems, total time, and the summary lines.
    mutating func finish(_ error: (any RelctlError)?) -> ReleaseOutcome {
        plan.ok = error == nil
        plan.problems = error?.diagnostics.map(\.description) ?? []
        plan.problemDetails = error?.diagnostics ?? []
        plan.seconds = (clock.seconds(since: started) * 1000).rounded() / 1000
        // Every warning of the run, the stages' as well as the preflight's.
        plan.warnings = diagnostics.warnings.map(\.description)
        if error != nil { for line in plan.problems { progress.error(line) } }
        progress.summary(plan.stages, total: plan.seconds)
        return ReleaseOutcome(plan: plan, error: error)
    }
}
