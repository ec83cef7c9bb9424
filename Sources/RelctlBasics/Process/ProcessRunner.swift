import Foundation
import Synchronization

public struct ProcessRunner: ProcessRunning {
    public init() {}

    /// `env`, which searches PATH for a bare command name as a user's shell would.
    package static let env = AbsolutePath.root.appending("usr/bin/env").url

    public func run(_ command: Command) async throws -> ProcessResult {
        let collected = Mutex<[OutputChannel: Data]>([:])
        let status = try await execute(command) { stream, handle, _ in
            let data = handle.readDataToEndOfFile()
            collected.withLock { $0[stream] = data }
        }
        let output = collected.withLock { $0 }
        return ProcessResult(status: status, stdout: output[.stdout] ?? Data(), stderr: output[.stderr] ?? Data())
    }

    public func streamChunks(
        _ command: Command, onChunk: @escaping @Sendable (OutputChannel, Data) -> StreamVerdict
    ) async throws -> Int32 {
        try await execute(command) { stream, handle, stop in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                if onChunk(stream, chunk) == .stop {
                    stop()
                    // Closing our end also stops a writer the kill missed (EPIPE), so the other
                    // stream's reader reaches its end.
                    try? handle.close()
                    break
                }
            }
        }
    }

    /// Starts the child, feeds it `command.input` (stdin is closed otherwise), drains both output
    /// pipes at once so a chatty child cannot block on a full pipe, and waits for the child and both
    /// readers. All the blocking happens on threads of its own (`BlockingWork`), never on the pool.
    private func execute(
        _ command: Command, drain: @escaping @Sendable (OutputChannel, FileHandle, @Sendable () -> Void) -> Void
    ) async throws -> Int32 {
        let kind: WorkKind = command.runsGit ? .git : .processes
        return try await WorkProfile.shared.measure(kind) { try await launchAndWait(command, drain: drain) }
    }

    private func launchAndWait(
        _ command: Command, drain: @escaping @Sendable (OutputChannel, FileHandle, @Sendable () -> Void) -> Void
    ) async throws -> Int32 {
        try await BlockingWork.run {
            let process = try makeProcess(command)
            let outPipe = Pipe(), errPipe = Pipe()
            process.standardOutput = outPipe
            process.standardError = errPipe
            let inPipe = command.input.map { _ in Pipe() }
            process.standardInput = inPipe ?? FileHandle.nullDevice
            // The launch observer (the release lock's pid record) returns before stdin is written,
            // which is what opens a gated command (`Command.gated()`).
            try launch(process, command)
            let pid = process.processIdentifier
            let stop: @Sendable () -> Void = { ChildProcesses.shared.stopChild(pid) }
            var bodies: [@Sendable () -> Void] = [(OutputChannel.stdout, outPipe), (.stderr, errPipe)].map {
                stream, pipe in { drain(stream, pipe.fileHandleForReading, stop) }
            }
            if let inPipe, let input = command.input {
                bodies.append {
                    // A child that exits without reading must not kill relctl with SIGPIPE. Blocking it
                    // on this writer thread alone turns it into EPIPE here and leaves the process-wide
                    // disposition, which children inherit, untouched.
                    var pipeSignal = sigset_t()
                    sigemptyset(&pipeSignal)
                    sigaddset(&pipeSignal, SIGPIPE)
                    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
                    try? inPipe.fileHandleForWriting.write(contentsOf: input)
                    try? inPipe.fileHandleForWriting.close()
                }
            }
            BlockingWork.together(bodies)
            process.waitUntilExit()
            ChildProcesses.shared.remove(process.processIdentifier)
            Interrupts.parkIfInterrupted()
            return process.terminationStatus
        }
    }

    private func makeProcess(_ command: Command) throws -> Process {
        let process = Process()
        if command.executable.contains("/") {
            // `./tool` is relative to relctl's own working directory, as it was for the shell.
            process.executableURL =
                AbsolutePath(command.executable, relativeTo: AbsolutePath(FileSystem.currentDirectory)).url
            process.arguments = command.arguments
        } else if let found = Self.searchPath(
            for: command.executable, path: (command.environment ?? ProcessInfo.processInfo.environment)["PATH"])
        {
            // Found on PATH as a shell would find it: exec'd directly, one process start instead of
            // env's two (every git call paid both: 5 of an unchanged image re-push's 0.05 s).
            process.executableURL = found
            process.arguments = command.arguments
        } else {
            // Not found here: env searches again and says so in its own words (exit 127).
            process.executableURL = Self.env
            process.arguments = [command.executable] + command.arguments
        }
        if let directory = command.directory { process.currentDirectoryURL = directory }
        if let environment = command.environment { process.environment = environment }
        return process
    }

    /// Where a bare command name is on `path`: the first folder holding an executable regular file
    /// of that name, as `execvp` (and so `env`) picks. Nil when an entry is empty or relative
    /// (execvp reads those against the working directory: env keeps that rule) or nothing matches.
    package static func searchPath(for name: String, path: String?) -> URL? {
        guard let path, !path.isEmpty,
            path.split(separator: ":", omittingEmptySubsequences: false).allSatisfy({ $0.hasPrefix("/") })
        else { return nil }
        return firstExecutable(name, onPath: path)
    }

    /// The first absolute folder of `path` holding an executable regular file `name`; relative
    /// entries are skipped. A few stat calls: not worth remembering, and a tool installed mid-run
    /// is found.
    package static func firstExecutable(_ name: String, onPath path: String?) -> URL? {
        for folder in (path ?? "").split(separator: ":") where folder.hasPrefix("/") {
            guard let candidate = AbsolutePath(absolute: String(folder))?.appending(name) else { continue }
            if FileKind.isRegularFile(candidate.pathString), FileSystem.isAccessible(atPath: candidate.pathString, X_OK) {
                return candidate.url
            }
        }
        return nil
    }

    private func launch(_ process: Process, _ command: Command) throws {
        do {
            try ChildProcesses.shared.launch(process)
        } catch {
            throw CommandError(command: command.description, status: 127, output: "\(error)")
        }
    }
}
