import Foundation
import RelctlBasics
import RelctlModel

/// What `relctl train run` did in one repository.
public struct TrainRepositoryResult: Sendable, Encodable {
    public enum Status: String, Sendable, Encodable {
        case released, dryRunOK = "dry-run-ok", preflightOK = "preflight-ok", failed, notRun = "not-run", rolledBack =
            "rolled-back"
        /// Resumed train: the tag already points at the commit this run would tag; nothing done.
        case alreadyReleased = "already-released"
    }
    var name: String
    var path: String
    var wave: Int
    public var status: Status
    var seconds: Double = 0
    /// The child release's problems, one line each.
    var problems: [String] = []
    /// What each `[[repo.pin]]` changes (on a dry run: would change).
    var pins: [PinChange] = []
    /// The pin commit this run made (full hash), if any.
    var pinCommit: String?
    /// The commit the tag points at.
    var commit: String?
    /// How the tag reached the remote: `atomic` (branch and tag in one push), `separate` (the
    /// remote refused --atomic), `release` (the child's own `--push`), or nil.
    var push: String?
    /// Why the repository was skipped or resumed, when it was.
    var note: String?
}

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

/// What the train did in one repository, kept for the rollback: exactly the objects this run
/// created, so it never deletes a tag or reverts a commit that is not its own.
struct TrainAttempt: Sendable {
    var step: TrainStep
    var result: TrainRepositoryResult
    /// The tag this run created (its object id), read back right after the child released.
    var createdTag: TagRef?
    /// The pin commit this run made.
    var pinCommit: String?
    var pinPushed = false
    /// Files the child moved into dist/ (absolute).
    var distFiles: [URL] = []
    /// The problems to report when this repository failed (already prefixed by its name).
    var failure: [Diagnostic] = []
    var exitCode: RelctlExitCode = .failure
    /// Whether anything of this attempt may need undoing.
    var touched: Bool { createdTag != nil || pinCommit != nil || !distFiles.isEmpty }
}
