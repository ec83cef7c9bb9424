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
