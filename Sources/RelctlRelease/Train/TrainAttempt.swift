import Foundation
import RelctlBasics
import RelctlModel

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
