import Foundation

/// The one place relctl runs blocking work (libarchive writes, hashing, waiting on a child's
/// pipes) from async code. Each call gets a thread of its own, so the cooperative pool, which
/// has one thread per core, stays free for progress redraws and for starting the next job:
/// `--jobs 6` on two cores really runs six archives at once.
package enum BlockingWork {
    /// Runs `work` on a dedicated thread and resumes with its result.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            start { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work`, which cannot fail, on a dedicated thread.
    package static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: work()) }
        }
    }

    /// Starts `work` on a dedicated thread and returns at once; for synchronous callers that join
    /// through their own means (the process runner's pipe readers).
    package static func start(_ work: @escaping @Sendable () -> Void) {
        // A thread of its own, not libdispatch's global pool, which grows too slowly when many
        // readers block at once (measured in round 1: 8 parallel builds took 2.5x longer).
        Thread.detachNewThread(work)
    }

    /// Runs every body at once, one on the calling thread and the others on threads of their own,
    /// and returns when all have finished; for synchronous code that must drain several blocking
    /// sources together (a child's stdout and stderr, so a chatty child never fills a pipe).
    package static func together(_ bodies: [@Sendable () -> Void]) {
        guard let first = bodies.first else { return }
        let group = DispatchGroup()
        for body in bodies.dropFirst() {
            group.enter()
            start {
                body()
                group.leave()
            }
        }
        first()
        group.wait()
    }
}

extension Result where Failure == any Error {
    /// `Result(catching:)` for an async body: git queries whose failure is an answer to switch on.
    package init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
