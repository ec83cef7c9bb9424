import Foundation
import Synchronization

/// A process that failed: it keeps the command, its exit status and the tail of its stderr so
/// the user sees why without re-running it.
public struct CommandError: RelctlError, CustomStringConvertible {
    public var command: String
    public var status: Int32
    public var output: String
    public var exitCode: RelctlExitCode

    public init(command: String, status: Int32, output: String, exitCode: RelctlExitCode = .failure) {
        self.command = command
        self.status = status
        self.output = output
        self.exitCode = exitCode
    }

    public var diagnostics: [Diagnostic] {
        let tail = output.split(separator: "\n", omittingEmptySubsequences: true).suffix(10).joined(separator: "\n    ")
        let detail = tail.isEmpty ? "" : "\n    " + tail
        let what =
            status == 127
            ? "could not be started (exit 127: is it installed and on PATH?)" : "exited with status \(status)"
        return [Diagnostic("`\(command)` \(what)\(detail)")]
    }

    public var description: String { message }
}
