import Foundation

/// Runs child processes. relctl has one implementation, `ProcessRunner`; the protocol is the seam
/// `Context` carries so every child goes through the same tracking and interrupt handling.
///
/// Both calls are async and never block the cooperative pool: the wait happens on a thread of the
/// runner's own, so a progress redraw or the next job keeps running while git or a build works.
public protocol ProcessRunning: Sendable {
    /// Runs to completion and captures both streams.
    func run(_ command: Command) async throws -> ProcessResult
    /// Runs to completion, handing each output line to `onLine` as it arrives; returns the exit status.
    func stream(_ command: Command, onLine: @escaping @Sendable (OutputChannel, String) -> Void) async throws -> Int32
}

extension ProcessRunning {
    /// Runs and throws `CommandError` on a non-zero exit; returns stdout.
    @discardableResult
    package func checked(_ command: Command) async throws -> String {
        let result = try await run(command)
        guard result.succeeded else {
            throw CommandError(
                command: command.description, status: result.status, output: result.stderrText + result.stdoutText)
        }
        return result.stdoutText
    }
}
