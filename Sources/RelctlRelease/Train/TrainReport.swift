import Foundation
import RelctlBasics
import RelctlModel

/// The outcome of `relctl train run`.
public struct TrainReport: Sendable, Encodable {
    var tag: String
    var dryRun: Bool
    var ok: Bool = false
    public var repositories: [TrainRepositoryResult] = []
    /// Parallel repositories per wave (`--jobs`).
    var jobs: Int = 1
    /// One line per action of the rollback (tag deleted, pin commit reverted, dist/ files removed).
    var rolledBack: [String] = []
    /// One line per thing the rollback could not undo, with the exact command to run.
    var notRolledBack: [String] = []
    public var seconds: Double = 0
}
