import Synchronization

/// A count shared by concurrent jobs (archives written so far, for progress).
final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    init() {}

    /// Adds one and returns the new count.
    func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
