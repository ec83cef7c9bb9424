import Foundation
import Synchronization

/// A command line to run: no shell unless the caller asks for `/bin/sh -c`.
public struct Command: Sendable, CustomStringConvertible {
    package var executable: String
    package var arguments: [String]
    package var directory: URL?
    /// The complete environment for the child; nil inherits relctl's own.
    package var environment: [String: String]?
    /// Bytes written to the child's stdin; nil leaves stdin closed (reading it gives end of file).
    package var input: Data?

    public init(
        _ executable: String, _ arguments: [String] = [], directory: URL? = nil, environment: [String: String]? = nil,
        input: Data? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
        self.input = input
    }

    /// Whether the program is git (also behind `gated()`'s shell), for the profile's split.
    var runsGit: Bool {
        let program = executable == "/bin/sh" && arguments.count > 2 && arguments[0] == "-c" ? arguments[2] : executable
        return program == "git" || program.hasSuffix("/git")
    }

    /// A shell command line, run as `/bin/sh -c LINE`.
    package static func shell(_ line: String, directory: URL?, environment: [String: String]?) -> Command {
        Command("/bin/sh", ["-c", line], directory: directory, environment: environment)
    }

    /// This command held at a gate until relctl has recorded the child (`ChildProcesses`' launch
    /// observer, which writes its pid to the release lock): `/bin/sh` waits for a line on stdin,
    /// then becomes the command (`exec` keeps the pid). A relctl killed before it opens the gate
    /// closes stdin instead, and the command never runs, so a killed release's lock never misses a
    /// `git tag` or `git push` that is still at work.
    package func gated() -> Command {
        precondition(input == nil, "a gated command's stdin is its gate")
        return Command(
            "/bin/sh", ["-c", #"read -r _ || exit 125; exec "$0" "$@""#, executable] + arguments, directory: directory,
            environment: environment, input: Data("\n".utf8))
    }

    public var description: String {
        ([executable] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}

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
