import Synchronization

/// A count shared by concurrent jobs (archives written so far, for progress).
package final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    /// Adds one and returns the new count.
    package func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
