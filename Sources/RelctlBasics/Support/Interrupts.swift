import Foundation
import Synchronization

/// Installs SIGINT/SIGTERM handling: stop every child, delete every registered partial file,
/// run the registered undo steps (`InterruptActions`, e.g. deleting a fresh tag), then exit 130
/// (SIGINT) or 143 (SIGTERM) as shells expect.
public enum Interrupts {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let interrupted = Mutex<Bool>(false)

    /// True once SIGINT/SIGTERM arrived and relctl is stopping; the handler ends the process.
    package static var isInterrupted: Bool { interrupted.withLock { $0 } }

    /// Called by code that just saw a child die: if that was our own interrupt, this thread waits for
    /// the handler's `exit(130)` instead of reporting a "failure" and exiting 1 first.
    public static func parkIfInterrupted() {
        while isInterrupted { sleep(1) }
    }

    public static func install(onInterrupt: @escaping @Sendable (Int32) -> Void = { _ in }) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                interrupted.withLock { $0 = true }
                ChildProcesses.shared.terminateAll()
                CleanupRegistry.shared.removeAll()
                InterruptActions.shared.runAll()
                onInterrupt(signalNumber)
                ProcessEnd.terminate(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}

/// Undo steps to run if relctl is interrupted (Ctrl-C) while it holds something that must not
/// outlive it, such as a freshly created tag. The handler `Interrupts.install` sets up runs them
/// after the children were stopped; they start git directly because the process runner refuses
/// new children once an interrupt began.
package final class InterruptActions: Sendable {
    package static let shared = InterruptActions()
    private let actions = Mutex<[(id: Int, action: @Sendable () -> Void)]>([])
    private let counter = Atomic<Int>(0)

    /// Registers an action; keep the id to remove it once the risk has passed.
    @discardableResult
    package func add(_ action: @escaping @Sendable () -> Void) -> Int {
        let id = counter.add(1, ordering: .relaxed).newValue
        actions.withLock { $0.append((id, action)) }
        return id
    }

    /// Drops an action whose risk has passed. Once an interrupt began this does nothing: the
    /// main flow, failing because its children were stopped, must not disarm the undo.
    package func remove(_ id: Int) {
        guard !Interrupts.isInterrupted else { return }
        actions.withLock { $0.removeAll { $0.id == id } }
    }

    /// Runs every action, newest first, once.
    package func runAll() {
        let current = actions.withLock { list -> [(id: Int, action: @Sendable () -> Void)] in
            let copy = list
            list.removeAll()
            return copy
        }
        for entry in current.reversed() { entry.action() }
    }

    /// Runs `git ARGS` in `directory` without the tracked process runner, waiting at most
    /// `timeout` seconds; for use inside interrupt actions only.
    package static func git(_ arguments: [String], in directory: URL, timeout: Double = 10) -> Bool {
        let process = Process()
        process.executableURL = ProcessRunner.env
        process.arguments = ["git", "-C", directory.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        process.environment = environment
        guard (try? process.run()) != nil else { return false }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate(); return false }
        return process.terminationStatus == 0
    }
}
