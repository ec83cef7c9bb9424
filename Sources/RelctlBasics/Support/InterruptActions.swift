import Foundation
import Synchronization

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
