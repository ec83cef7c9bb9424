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
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
