import Foundation
import Synchronization

/// Undo steps to run if relctl is interrupted (Ctrl-C) while it holds something that must not
/// outlive it, such as a freshly created tag. The CLI runs them from its interrupt handler, after
/// the children were stopped; they start git directly because the process runner refuses new
/// children once an interrupt began.
public final class InterruptActions: Sendable {
    public static let shared = InterruptActions()
    private let actions = Mutex<[(id: Int, action: @Sendable () -> Void)]>([])
    private let counter = Atomic<Int>(0)

    private let interrupted = Atomic<Bool>(false)
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    /// True once SIGINT/SIGTERM arrived.
    public var isInterrupted: Bool { interrupted.load(ordering: .acquiring) }

    /// Installs SIGINT/SIGTERM handling for commands that create tags: mark the interrupt (so
    /// the main flow, failing because its children died, does not exit first), stop every
    /// child, run the undo actions, delete registered partial files, exit 130/143. Use it
    /// instead of `Interrupts.install()`.
    public static func install() {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                shared.interrupted.store(true, ordering: .releasing)
                ChildProcesses.shared.terminateAll()
                shared.runAll()
                CleanupRegistry.shared.removeAll()
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Called by the main flow before it exits: after an interrupt, the handler owns the exit.
    public func parkIfInterrupted() {
        while isInterrupted { sleep(1) }
    }

    /// Registers an action; keep the id to remove it once the risk has passed.
    @discardableResult
    public func add(_ action: @escaping @Sendable () -> Void) -> Int {
        let id = counter.add(1, ordering: .relaxed).newValue
        actions.withLock { $0.append((id, action)) }
        return id
    }

    public func remove(_ id: Int) {
        actions.withLock { $0.removeAll { $0.id == id } }
    }

    /// Runs every action, newest first, once.
    public func runAll() {
        let current = actions.withLock { list -> [(id: Int, action: @Sendable () -> Void)] in
            let copy = list
            list.removeAll()
            return copy
        }
        for entry in current.reversed() { entry.action() }
    }

    /// Runs `git ARGS` in `directory` without the tracked process runner, waiting at most
    /// `timeout` seconds; for use inside interrupt actions only.
    public static func git(_ arguments: [String], in directory: URL, timeout: Double = 10) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
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
