import Foundation

/// The outcome of `relctl train run`.
public struct TrainReport: Sendable, Encodable {
    public var tag: String
    public var dryRun: Bool
    public var ok: Bool = false
    public var repositories: [TrainRepositoryResult] = []
    /// Parallel repositories per wave (`--jobs`).
    public var jobs: Int = 1
    /// One line per action of the rollback (tag deleted, pin commit reverted, dist/ files removed).
    public var rolledBack: [String] = []
    /// One line per thing the rollback could not undo, with the exact command to run.
    public var notRolledBack: [String] = []
    public var seconds: Double = 0
}
