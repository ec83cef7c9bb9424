import Foundation

/// The waves a train would release, for `relctl train plan`.
public struct TrainPlan: Sendable, Encodable {
    public var tag: String
    public var workspace: String
    public var waves: [[Workspace.Repository]]

    public init(tag: String, workspace: Workspace) {
        self.tag = tag
        self.workspace = workspace.path
        self.waves = workspace.waves()
    }

    public func rendered() -> String {
        let count = waves.reduce(0) { $0 + $1.count }
        var lines = [
            "train \(tag): \(count) repositor\(count == 1 ? "y" : "ies") in \(waves.count) wave\(waves.count == 1 ? "" : "s") (\(workspace))"
        ]
        for (index, wave) in waves.enumerated() {
            let names = wave.map { repository in
                var details = [repository.path]
                if !repository.after.isEmpty { details.append("after \(repository.after.joined(separator: ", "))") }
                if !repository.pins.isEmpty {
                    details.append("pins \(repository.pins.map(\.path).joined(separator: ", "))")
                }
                return "\(repository.name) (\(details.joined(separator: ", ")))"
            }
            lines.append("  wave \(index + 1): " + names.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

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

/// Why a train stopped.
public struct TrainError: RelctlError {
    public var exitCode: RelctlExitCode = .failure
    public var diagnostics: [Diagnostic]
}
