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
        var lines = ["train \(tag): \(count) repositor\(count == 1 ? "y" : "ies") in \(waves.count) wave\(waves.count == 1 ? "" : "s") (\(workspace))"]
        for (index, wave) in waves.enumerated() {
            let names = wave.map { repository in
                repository.after.isEmpty ? "\(repository.name) (\(repository.path))" : "\(repository.name) (\(repository.path), after \(repository.after.joined(separator: ", ")))"
            }
            lines.append("  wave \(index + 1): " + names.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// What `relctl train run` did in one repository.
public struct TrainRepositoryResult: Sendable, Encodable {
    public enum Status: String, Sendable, Encodable {
        case released, dryRunOK = "dry-run-ok", preflightOK = "preflight-ok", failed, notRun = "not-run", rolledBack = "rolled-back"
    }
    public var name: String
    public var path: String
    public var wave: Int
    public var status: Status
    public var seconds: Double = 0
    /// The child release's problems, one line each.
    public var problems: [String] = []
}

/// The outcome of `relctl train run`.
public struct TrainReport: Sendable, Encodable {
    public var tag: String
    public var dryRun: Bool
    public var ok: Bool = false
    public var repositories: [TrainRepositoryResult] = []
    /// One line per tag deleted during rollback.
    public var rolledBack: [String] = []
    /// One line per tag that could not be deleted: the user must remove it by hand.
    public var notRolledBack: [String] = []
    public var seconds: Double = 0
}

/// Why a train stopped.
public struct TrainError: RelctlError {
    public var exitCode: ExitCode = .failure
    public var diagnostics: [Diagnostic]
}
