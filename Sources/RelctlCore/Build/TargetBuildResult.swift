import Foundation

/// How one target's build ended.
public struct TargetBuildResult: Sendable, Encodable {
    enum Outcome: String, Sendable, Encodable {
        case succeeded
        /// The command exited non-zero.
        case failed
        /// The command succeeded but expected binaries are missing.
        case missingBinaries = "missing-binaries"
    }

    var target: String
    var outcome: Outcome
    /// The command line run (after placeholders), or nil when `[build] command` is unset (prebuilt binaries).
    var command: String?
    var exitStatus: Int32
    /// The binary folder, relative to the project root.
    var binaryDirectory: String
    /// Expected binary paths (relative to the project root) that do not exist.
    var missing: [String]
    /// The last lines of the command's combined output, kept for failures.
    var outputTail: [String]
    var seconds: Double

    var succeeded: Bool { outcome == .succeeded }

    enum CodingKeys: String, CodingKey {
        case target, outcome, command, missing, seconds
        case exitStatus = "exit-status"
        case binaryDirectory = "binary-dir"
        case outputTail = "output-tail"
    }
}
