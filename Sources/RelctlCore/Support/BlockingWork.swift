import Foundation

/// Runs blocking work (libdeflate, libarchive, long file I/O) on a thread of its own and suspends
/// the calling task until it ends. Swift's cooperative pool has one thread per core: a task that
/// blocks one of them for seconds starves every other task, and libdispatch's global queues grow
/// their pool too slowly for CPU-bound bursts (see ProcessRunner). A fresh thread costs tens of
/// microseconds, nothing beside a compression of a megabyte.
///
/// The body runs to its end even if the task is cancelled: blocking C calls cannot be interrupted,
/// so callers that need to stop early pass the body a flag to check (see `ChunkGate`).
public enum BlockingWork {
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
