import Synchronization

/// A count shared by concurrent jobs (archives written so far, for progress).
public final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    public init() {}

    /// Adds one and returns the new count.
    public func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
