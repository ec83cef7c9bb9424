import Foundation

/// What `relctl train run` did in one repository.
public struct TrainRepositoryResult: Sendable, Encodable {
    public enum Status: String, Sendable, Encodable {
        case released, dryRunOK = "dry-run-ok", preflightOK = "preflight-ok", failed, notRun = "not-run", rolledBack =
            "rolled-back"
        /// Resumed train: the tag already points at the commit this run would tag; nothing done.
        case alreadyReleased = "already-released"
    }
    public var name: String
    public var path: String
    public var wave: Int
    public var status: Status
    public var seconds: Double = 0
    /// The child release's problems, one line each.
    public var problems: [String] = []
    /// What each `[[repo.pin]]` changes (on a dry run: would change).
    public var pins: [PinChange] = []
    /// The pin commit this run made (full hash), if any.
    public var pinCommit: String?
    /// The commit the tag points at.
    public var commit: String?
    /// How the tag reached the remote: `atomic` (branch and tag in one push), `separate` (the
    /// remote refused --atomic), `release` (the child's own `--push`), or nil.
    public var push: String?
    /// Why the repository was skipped or resumed, when it was.
    public var note: String?
}
