import Dispatch
import Synchronization

/// Bounds how many chunks of one archive are in memory at once (filled, compressing, or compressed
/// and waiting for an earlier one): the producer thread takes a permit per chunk and blocks when
/// none is left; the writer returns it once the chunk is on disk. This keeps memory flat whatever
/// the file sizes. `cancel` lets a producer blocked here stop when the writer has failed.
final class ChunkGate: Sendable {
    private let permits: DispatchSemaphore
    private let cancelled = Atomic<Bool>(false)

    init(capacity: Int) {
        // libdispatch traps when a semaphore is freed holding fewer permits than it was created
        // with, which is the normal state after a failure: start at zero and add them.
        permits = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { permits.signal() }
    }

    /// Blocks (on a thread of its own: see `BlockingWork`) until a permit is free; false once
    /// cancelled, and the caller must stop producing.
    func acquire() -> Bool {
        if cancelled.load(ordering: .acquiring) { return false }
        permits.wait()
        return !cancelled.load(ordering: .acquiring)
    }

    func release() {
        permits.signal()
    }

    /// Wakes a blocked producer, which then sees the flag; every later `acquire` fails at once.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        permits.signal()
    }
}
