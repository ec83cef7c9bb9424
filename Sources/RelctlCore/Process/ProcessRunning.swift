import Foundation
import Synchronization

/// Runs child processes. The real one uses Foundation's `Process`; every child is tracked so an
/// interrupt can stop them all.
public protocol ProcessRunning: Sendable {
    /// Runs to completion and captures both streams.
    func run(_ command: Command) throws -> ProcessResult
    /// Runs to completion, handing each output line to `onLine` as it arrives; returns the exit status.
    func stream(_ command: Command, onLine: @escaping @Sendable (OutputChannel, String) -> Void) throws -> Int32
}

extension ProcessRunning {
    /// `run` from async code: the wait happens on a thread of its own, not the cooperative pool.
    func run(_ command: Command) async throws -> ProcessResult {
        try await BlockingWork.run { try self.run(command) }
    }

    /// `stream` from async code, likewise off the cooperative pool.
    func stream(
        _ command: Command, onLine: @escaping @Sendable (OutputChannel, String) -> Void
    ) async throws -> Int32 {
        try await BlockingWork.run { try self.stream(command, onLine: onLine) }
    }

    /// Runs and throws `CommandError` on a non-zero exit; returns stdout.
    @discardableResult
    func checked(_ command: Command) throws -> String {
        let result = try run(command)
        guard result.succeeded else {
            throw CommandError(
                command: command.description, status: result.status, output: result.stderrText + result.stdoutText)
        }
        return result.stdoutText
    }
}
