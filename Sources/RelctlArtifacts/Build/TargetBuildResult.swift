import Foundation
import RelctlBasics

/// How one target's build ended.
public struct TargetBuildResult: Sendable, Encodable {
    package enum Outcome: String, Sendable, Encodable {
        case succeeded
        /// The command exited non-zero.
        case failed
        /// The command succeeded but expected binaries are missing.
        case missingBinaries = "missing-binaries"
    }

    package var target: String
    package var outcome: Outcome
    /// The command line run (after placeholders), or nil when `[build] command` is unset (prebuilt binaries).
    package var command: String?
    package var exitStatus: Int32
    /// The binary folder, relative to the project root.
    package var binaryDirectory: String
    /// Expected binary paths (relative to the project root) that do not exist.
    package var missing: [String]
    /// The last lines of the command's combined output, kept for failures.
    package var outputTail: [String]
    package var seconds: Double

    package var succeeded: Bool { outcome == .succeeded }

    package enum CodingKeys: String, CodingKey {
        case target, outcome, command, missing, seconds
        case exitStatus = "exit-status"
        case binaryDirectory = "binary-dir"
        case outputTail = "output-tail"
    }
}
