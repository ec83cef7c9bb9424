import Foundation
import Synchronization

/// Runs child processes. relctl has one implementation, `ProcessRunner`; the protocol is the seam
/// `Context` carries so every child goes through the same tracking and interrupt handling.
///
/// Both calls are async and never block the cooperative pool: the wait happens on a thread of the
/// runner's own, so a progress redraw or the next job keeps running while git or a build works.
public protocol ProcessRunning: Sendable {
    /// Runs to completion and captures both streams.
    func run(_ command: Command) async throws -> ProcessResult
    /// Runs to completion, handing the output to `onChunk` as it arrives, in pieces as the pipes
    /// deliver them (each channel's calls come from one thread, in order); returns the exit status.
    /// For output too large to hold whole (`git log` over 100,000 commits, issue 31). When
    /// `onChunk` answers `.stop` (a reader past its limit), the child and its process group are
    /// killed and the rest of that stream is not read.
    func streamChunks(
        _ command: Command, onChunk: @escaping @Sendable (OutputChannel, Data) -> StreamVerdict
    )
        async throws -> Int32
}

/// What a streaming reader wants after a chunk.
public enum StreamVerdict: Sendable {
    case more
    /// Enough: stop the child (its output went past what the reader accepts).
    case stop
}

extension ProcessRunning {
    /// Runs to completion, handing each output line to `onLine` as it arrives; returns the exit status.
    package func stream(
        _ command: Command, onLine: @escaping @Sendable (OutputChannel, String) -> Void
    ) async throws
        -> Int32
    {
        let pending = Mutex<[OutputChannel: Data]>([:])
        let status = try await streamChunks(command) { stream, chunk in
            let lines: [String] = pending.withLock { all in
                var buffer = all[stream, default: Data()]
                buffer.append(chunk)
                var lines: [String] = []
                var start = buffer.startIndex
                while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    lines.append(String(decoding: buffer[start..<newline], as: UTF8.self))
                    start = newline + 1
                }
                all[stream] = Data(buffer[start...])
                return lines
            }
            for line in lines { onLine(stream, line) }
            return .more
        }
        // A last line without its newline.
        let rests = pending.withLock { $0 }
        for stream in [OutputChannel.stdout, .stderr] {
            if let rest = rests[stream], !rest.isEmpty { onLine(stream, String(decoding: rest, as: UTF8.self)) }
        }
        return status
    }

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

/// Which stream a line of child output came from.
public enum OutputChannel: Sendable { case stdout, stderr }

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    package var stdout: Data
    package var stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }

    /// The last four non-empty lines of output, joined on one line: what an error message quotes
    /// from a failed git push or bump.
    package var outputTail: String {
        (stderrText + stdoutText).split(separator: "\n").filter { !$0.isEmpty }.suffix(4).joined(separator: " | ")
    }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    package var succeeded: Bool { status == 0 }
}
