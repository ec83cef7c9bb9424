import Foundation
import RelctlBasics
import Synchronization

/// The temporary directories made while one test runs, removed together when it ends
/// (`RemovesTemporaries` opens a scope per test). A directory made outside any scope (a static
/// fixture shared by several tests, a thread that is not a task) is not tracked, so nothing a
/// later test still needs is removed under it.
public final class TemporaryScope: Sendable {
    @TaskLocal public static var current: TemporaryScope?

    private let made = Mutex<[TemporaryDirectory]>([])

    func track(_ directory: TemporaryDirectory) {
        made.withLock { $0.append(directory) }
    }

    /// Runs `body` with a new scope, then removes what was made in it, even when `body` throws.
    public static func run(_ body: @Sendable () async throws -> Void) async throws {
        let scope = TemporaryScope()
        defer { for directory in scope.made.withLock({ $0 }).reversed() { directory.remove() } }
        try await $current.withValue(scope) { try await body() }
    }

    /// Runs `body` on a blocking-work thread inside the caller's scope. A task-local does not
    /// follow work onto another thread, so without this the folders made there (a fixture built
    /// off the test's task) would outlive the test.
    /// The test's cancellation (its time limit passed) follows the work too, so the children
    /// `body` waits on are killed then (`TestCancellation`).
    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let scope = current
        let cancellation = TestCancellation()
        return try await withTaskCancellationHandler {
            try await BlockingWork.run {
                try $current.withValue(scope) { try TestCancellation.$current.withValue(cancellation) { try body() } }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    public static func blocking<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        let scope = current
        let cancellation = TestCancellation()
        return await withTaskCancellationHandler {
            await BlockingWork.run {
                $current.withValue(scope) { TestCancellation.$current.withValue(cancellation) { body() } }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
