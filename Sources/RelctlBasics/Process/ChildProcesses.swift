import Foundation
import Synchronization

/// Every child relctl has started and not yet reaped, so Ctrl-C can stop them all.
///
/// Foundation's `Process` starts each child in a process group of its own (POSIX_SPAWN_SETPGROUP on
/// Linux), so a terminal's Ctrl-C reaches relctl only; stopping children is our job, and signalling
/// the whole group also reaches grandchildren (`sh -c 'make'` → `cc`). The SIG_IGN that `Interrupts`
/// sets is not inherited: libdispatch replaces it with a handler, and exec resets handlers.
package final class ChildProcesses: Sendable {
    package static let shared = ChildProcesses()
    /// pid → the process group to signal (the pid itself when the child leads its own group).
    private let pids = Mutex<[Int32: Int32?]>([:])
    private let stopping = Mutex<Bool>(false)
    private let observer = Mutex<(@Sendable (Int32) -> Void)?>(nil)

    /// Tells `observer` the pid (its own process group) of every child started from now on; nil stops.
    package func observeLaunches(_ observer: (@Sendable (Int32) -> Void)?) {
        self.observer.withLock { $0 = observer }
    }

    /// True while the process group `group` has a live member (children a killed relctl left running).
    package static func isGroupAlive(_ group: Int32) -> Bool {
        guard group > 0 else { return false }
        return isRunning(group, group: group)
    }

    package func launch(_ process: Process) throws {
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

    package func remove(_ pid: Int32) {
        _ = pids.withLock { $0.removeValue(forKey: pid) }
    }

    /// Kills one child relctl still tracks, and its process group (SIGKILL: a reader that has had
    /// more output than it accepts does not wait for a polite exit). A pid no longer tracked (the
    /// child was reaped, the number may be reused) is left alone.
    package func stopChild(_ pid: Int32) {
        guard let entry = pids.withLock({ $0[pid] }) else { return }
        Self.signal(pid, group: entry, SIGKILL)
    }

    /// Sends SIGTERM to every running child and its process group, waits up to `grace` seconds for
    /// them to go, then SIGKILLs what is left (a child may ignore SIGTERM). Later launches are refused.
    package func terminateAll(grace: Double = 2) {
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
        guard let entries = try? FileSystem.names(atPath: "/proc") else { return true }
        for entry in entries where entry.first?.isNumber == true {
            guard let fields = ProcessStart.statFields(of: entry) else { continue }
            if fields.count > 2, Int32(fields[2]) == group, fields[0] != "Z" { return true }
        }
        return false
    }
    #endif
}
