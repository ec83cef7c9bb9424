import Foundation
import Synchronization

/// A process that failed: it keeps the command, its exit status and the tail of its stderr so
/// the user sees why without re-running it.
package struct CommandError: RelctlError, CustomStringConvertible {
    package var command: String
    package var status: Int32
    package var output: String
    package var exitCode: RelctlExitCode

    package init(command: String, status: Int32, output: String, exitCode: RelctlExitCode = .failure) {
        self.command = command
        self.status = status
        self.output = output
        self.exitCode = exitCode
    }

    package var diagnostics: [Diagnostic] {
        let tail = output.split(separator: "\n", omittingEmptySubsequences: true).suffix(10).joined(separator: "\n    ")
        let detail = tail.isEmpty ? "" : "\n    " + tail
        let what =
            status == 127
            ? "could not be started (exit 127: is it installed and on PATH?)" : "exited with status \(status)"
        return [Diagnostic("`\(command)` \(what)\(detail)")]
    }

    package var description: String { message }
}
