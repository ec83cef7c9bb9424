import Synchronization

/// Set once a request's overall deadline has passed, so the cancellation it causes is reported
/// as the deadline and not as a cancelled request.
package final class DeadlineFlag: Sendable {
    private let passed = Mutex(false)

    package func set() { passed.withLock { $0 = true } }
    package var isSet: Bool { passed.withLock { $0 } }
}
