import RelctlBasics

/// When each stage of a release may start. Stages start in stage order. A stage that does not
/// run alongside others (or whose run has it run a user command) starts once nothing runs, and
/// nothing starts while it runs. One that does starts once no running stage produces a fact it
/// needs or reads. With `overlap` off every stage runs alone (`RELCTL_SERIAL_STAGES=1`), and each
/// still works on the same copy of the outputs, so the two runs are the same but for the clock.
struct StageSchedule {
    let stages: [any ReleaseStage]
    let overlap: Bool
    /// The run's warnings: those of stages that ran alongside others come here in stage order.
    let diagnostics: DiagnosticsEngine
    /// The next stage to start or skip.
    private var next = 0
    /// Running stages, and whether each runs alongside others.
    private var running: [Int: Bool] = [:]
    private var completed: [Int] = []
    /// Warnings of stages that ran alongside others, in stage order, held until every stage
    /// started before has ended.
    private var held: [(index: Int, warnings: DiagnosticsEngine, ended: Bool)] = []

    init(stages: [any ReleaseStage], overlap: Bool, diagnostics: DiagnosticsEngine) {
        self.stages = stages
        self.overlap = overlap
        self.diagnostics = diagnostics
    }

    /// Whether `stage` may overlap others in `run` (and so works on the facts it reads only).
    static func runsAlongside(_ stage: any ReleaseStage, _ run: ReleaseRun) -> Bool {
        stage.runsAlongside && !stage.runsCommands(run)
    }

    /// The next stage, when it may start (or be skipped) now.
    func nextStartable(_ run: ReleaseRun) -> Int? {
        guard next < stages.count else { return nil }
        if running.isEmpty { return next }
        let stage = stages[next]
        guard overlap, Self.runsAlongside(stage, run), !running.values.contains(false) else { return nil }
        let reads = stage.needs.union(stage.reads)
        return running.keys.contains { !stages[$0].produces.isDisjoint(with: reads) } ? nil : next
    }

    mutating func skipped(_ index: Int) { next = index + 1 }

    /// Records that stage `index` started; returns whether it runs alongside others.
    mutating func started(_ index: Int, _ run: ReleaseRun, warnings: DiagnosticsEngine?) -> Bool {
        let alongside = Self.runsAlongside(stages[index], run)
        running[index] = alongside
        next = index + 1
        if let warnings { held.append((index, warnings, false)) }
        return alongside
    }

    func isAlongside(_ index: Int) -> Bool { running[index] ?? false }

    /// Stage `index` ended: the warnings of every stage whose predecessors have all ended move
    /// into the run's, in stage order.
    mutating func ended(_ index: Int) {
        running[index] = nil
        if let position = held.firstIndex(where: { $0.index == index }) { held[position].ended = true }
        while let first = held.first, first.ended, !running.keys.contains(where: { $0 < first.index }) {
            for warning in first.warnings.warnings { diagnostics.record(warning) }
            for error in first.warnings.errors { diagnostics.record(error, exitCode: first.warnings.exitCode) }
            held.removeFirst()
        }
    }

    mutating func completed(_ index: Int) { completed.append(index) }

    /// The stages that completed, in stage order (undone newest first after a failure).
    var completedStages: [any ReleaseStage] { completed.sorted().map { stages[$0] } }

    /// The stages never started or skipped (after a failure).
    var notStarted: ArraySlice<any ReleaseStage> { stages[next...] }
}
