import Foundation
import Synchronization

/// A command line to run: no shell unless the caller asks for `/bin/sh -c`.
public struct Command: Sendable, CustomStringConvertible {
    public var executable: String
    public var arguments: [String]
    public var directory: URL?
    /// The complete environment for the child; nil inherits relctl's own.
    public var environment: [String: String]?

    public init(
        _ executable: String, _ arguments: [String] = [], directory: URL? = nil, environment: [String: String]? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.directory = directory
        self.environment = environment
    }

    /// A shell command line, run as `/bin/sh -c LINE`.
    public static func shell(_ line: String, directory: URL?, environment: [String: String]?) -> Command {
        Command("/bin/sh", ["-c", line], directory: directory, environment: environment)
    }

    public var description: String {
        ([executable] + arguments).map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
    }
}

/// What a finished process left behind.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    public var succeeded: Bool { status == 0 }
}

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

/// Which stream a line of child output came from.
public enum OutputChannel: Sendable { case stdout, stderr }

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
    public func run(_ command: Command) async throws -> ProcessResult {
        try await BlockingWork.run { try self.run(command) }
    }

    /// `stream` from async code, likewise off the cooperative pool.
    public func stream(
        _ command: Command, onLine: @escaping @Sendable (OutputChannel, String) -> Void
    ) async throws -> Int32 {
        try await BlockingWork.run { try self.stream(command, onLine: onLine) }
    }

    /// Runs and throws `CommandError` on a non-zero exit; returns stdout.
    @discardableResult
    public func checked(_ command: Command) throws -> String {
        let result = try run(command)
        guard result.succeeded else {
            throw CommandError(
                command: command.description, status: result.status, output: result.stderrText + result.stdoutText)
        }
        return result.stdoutText
    }
}

public struct ProcessRunner: ProcessRunning {
    public init() {}

    public func run(_ command: Command) throws -> ProcessResult {
        let collected = Mutex<[OutputChannel: Data]>([:])
        let status = try execute(command) { stream, handle in
            let data = handle.readDataToEndOfFile()
            collected.withLock { $0[stream] = data }
        }
        let output = collected.withLock { $0 }
        return ProcessResult(status: status, stdout: output[.stdout] ?? Data(), stderr: output[.stderr] ?? Data())
    }

    public func stream(_ command: Command, onLine: @escaping @Sendable (OutputChannel, String) -> Void) throws -> Int32
    {
        try execute(command) { stream, handle in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    onLine(stream, String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
            if !pending.isEmpty { onLine(stream, String(decoding: pending, as: UTF8.self)) }
        }
    }

    /// Starts the child with stdin closed, drains both output pipes at once (so a chatty child
    /// cannot block on a full pipe), and waits for the child and both readers.
    private func execute(
        _ command: Command, drain: @escaping @Sendable (OutputChannel, FileHandle) -> Void
    ) throws -> Int32 {
        let process = try makeProcess(command)
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try launch(process, command)
        BlockingWork.together(
            [(OutputChannel.stdout, outPipe), (.stderr, errPipe)].map { stream, pipe in
                { drain(stream, pipe.fileHandleForReading) }
            })
        process.waitUntilExit()
        ChildProcesses.shared.remove(process.processIdentifier)
        Interrupts.parkIfInterrupted()
        return process.terminationStatus
    }

    private func makeProcess(_ command: Command) throws -> Process {
        let process = Process()
        if command.executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: command.executable)
            process.arguments = command.arguments
        } else {
            // Let env search PATH so callers can name `git` or `tar` as a user would.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [command.executable] + command.arguments
        }
        if let directory = command.directory { process.currentDirectoryURL = directory }
        if let environment = command.environment { process.environment = environment }
        return process
    }

    private func launch(_ process: Process, _ command: Command) throws {
        do {
            try ChildProcesses.shared.launch(process)
        } catch {
            throw CommandError(command: command.description, status: 127, output: "\(error)")
        }
    }
}

/// Every child relctl has started and not yet reaped, so Ctrl-C can stop them all.
///
/// Foundation's `Process` starts each child in a process group of its own (POSIX_SPAWN_SETPGROUP on
/// Linux), so a terminal's Ctrl-C reaches relctl only; stopping children is our job, and signalling
/// the whole group also reaches grandchildren (`sh -c 'make'` → `cc`). The SIG_IGN that `Interrupts`
/// sets is not inherited: libdispatch replaces it with a handler, and exec resets handlers.
public final class ChildProcesses: Sendable {
    public static let shared = ChildProcesses()
    /// pid → the process group to signal (the pid itself when the child leads its own group).
    private let pids = Mutex<[Int32: Int32?]>([:])
    private let stopping = Mutex<Bool>(false)
    private let observer = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    /// Tells `observer` the pid (its own process group) of every child started from now on; nil stops.
    public func observeLaunches(_ observer: (@Sendable (Int32) -> Void)?) {
        self.observer.withLock { $0 = observer }
    }

    /// True while the process group `group` has a live member (children a killed relctl left running).
    public static func isGroupAlive(_ group: Int32) -> Bool {
        guard group > 0 else { return false }
        return isRunning(group, group: group)
    }

    func launch(_ process: Process) throws {
        // Registering under the lock means an interrupt either sees the child or prevents it.
        try pids.withLock { table in
            if stopping.withLock({ $0 }) { throw CancellationError() }
            try process.run()
            let pid = process.processIdentifier
            // Remembered now: once the child is reaped getpgid fails, yet its children may still run.
            let group: Int32? = getpgid(pid) == pid ? pid : nil
            // updateValue, not subscript assignment: assigning a nil group would drop the child.
            table.updateValue(group, forKey: pid)
        }
        if let observe = observer.withLock({ $0 }) { observe(process.processIdentifier) }
    }

    func remove(_ pid: Int32) {
        _ = pids.withLock { $0.removeValue(forKey: pid) }
    }

    /// Sends SIGTERM to every running child and its process group, waits up to `grace` seconds for
    /// them to go, then SIGKILLs what is left (a child may ignore SIGTERM). Later launches are refused.
    public func terminateAll(grace: Double = 2) {
        stopping.withLock { $0 = true }
        let current = pids.withLock { $0 }
        guard !current.isEmpty else { return }
        for (pid, group) in current { Self.signal(pid, group: group, SIGTERM) }
        let deadline = Date().addingTimeInterval(grace)
        while Date() < deadline, current.contains(where: { Self.isRunning($0.key, group: $0.value) }) {
            usleep(20_000)
        }
        for (pid, group) in current where Self.isRunning(pid, group: group) { Self.signal(pid, group: group, SIGKILL) }
    }

    private static func signal(_ pid: Int32, group: Int32?, _ number: Int32) {
        if let group { kill(-group, number) }
        kill(pid, number)
    }

    /// True while the group (or the lone child) has a member that can receive signals.
    private static func isRunning(_ pid: Int32, group: Int32?) -> Bool {
        guard kill(group.map { -$0 } ?? pid, 0) == 0 else { return false }
        #if os(Linux)
        // kill(2) also succeeds for zombies nobody has reaped yet (common in containers whose
        // PID 1 does not reap); only a live member is worth waiting for.
        if let group { return groupHasLiveMember(group) }
        #endif
        return true
    }

    #if os(Linux)
    private static func groupHasLiveMember(_ group: Int32) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return true }
        for entry in entries where entry.first?.isNumber == true {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the command name: state, ppid, pgrp, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 2, Int32(fields[2]) == group, fields[0] != "Z" { return true }
        }
        return false
    }
    #endif
}
