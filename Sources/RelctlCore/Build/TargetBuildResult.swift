import Foundation

/// How one target's build ended.
public struct TargetBuildResult: Sendable, Encodable {
    public enum Outcome: String, Sendable, Encodable {
        case succeeded
        /// The command exited non-zero.
        case failed
        /// The command succeeded but expected binaries are missing.
        case missingBinaries = "missing-binaries"
    }

    public var target: String
    public var outcome: Outcome
    /// The command line run (after placeholders), or nil when `[build] command` is unset (prebuilt binaries).
    public var command: String?
    public var exitStatus: Int32
    /// The binary folder, relative to the project root.
    public var binaryDirectory: String
    /// Expected binary paths (relative to the project root) that do not exist.
    public var missing: [String]
    /// The last lines of the command's combined output, kept for failures.
    public var outputTail: [String]
    public var seconds: Double

    public var succeeded: Bool { outcome == .succeeded }

    enum CodingKeys: String, CodingKey {
        case target, outcome, command, missing, seconds
        case exitStatus = "exit-status"
        case binaryDirectory = "binary-dir"
        case outputTail = "output-tail"
    }
}
