import Foundation
import Synchronization

/// The one stop shared by every thread of a piece of streaming work (a producer, compressing
/// workers, a writer, an upload following the file): the first failure is kept, and every wait on
/// one of its channels (`BlockingChannel`) ends at once with `Stopped`, whichever side failed and
/// wherever the others are waiting. A task that is cancelled stops its work the same way
/// (`whileCancellable`). No thread of such work ever waits for a party that has given up: that is
/// what keeps a full disk, a file-size limit or an I/O error from hanging relctl (issue 48).
package final class WorkStop: Sendable {
    /// Thrown to the parties that did not fail first: another one did, and its error is the one
    /// to report (`failure`).
    package struct Stopped: Error, CustomStringConvertible {
        package init() {}
        package var description: String { "stopped because another part of the work failed" }
    }

    private let stopped = Atomic<Bool>(false)
    private let first = Mutex<(any Error)?>(nil)
    /// The conditions of this stop's channels, broadcast when it fails.
    private let conditions = Mutex<[NSCondition]>([])

    package init() {}

    /// True once a party failed (or the task was cancelled).
    package var isStopped: Bool { stopped.load(ordering: .acquiring) }

    /// The first failure, nil while the work goes on.
    package var failure: (any Error)? { first.withLock { $0 } }

    /// Records `error` if it is the first failure and wakes every thread waiting on a channel of
    /// this stop, so each sees it and ends. Returns false when another failure came first.
    @discardableResult
    package func fail(_ error: any Error) -> Bool {
        let isFirst = first.withLock { first -> Bool in
            guard first == nil else { return false }
            first = error
            return true
        }
        guard isFirst else { return false }
        // The flag before the broadcasts: a waiter checks it under its channel's lock, so it either
        // sees it before it waits or is waiting when its condition is broadcast.
        stopped.store(true, ordering: .releasing)
        for condition in conditions.withLock({ $0 }) {
            condition.lock()
            condition.broadcast()
            condition.unlock()
        }
        return true
    }

    /// Throws `Stopped` once the work has stopped: for loops that do not wait on a channel.
    package func check() throws(Stopped) {
        if isStopped { throw Stopped() }
    }

    /// Runs `body`, stopping this work with `CancellationError` if the task is cancelled meanwhile
    /// (a fault in another archive of the same command).
    package func whileCancellable<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withTaskCancellationHandler {
            if Task.isCancelled { fail(CancellationError()) }
            return try await body()
        } onCancel: {
            fail(CancellationError())
        }
    }

    fileprivate func register(_ condition: NSCondition) {
        conditions.withLock { $0.append(condition) }
    }
}

/// A bounded first-in first-out queue between threads, belonging to a `WorkStop`: `send` waits
/// while it is full, `receive` while it is empty, and both throw `WorkStop.Stopped` as soon as the
/// work stops, so no wait outlives a failure. `close` ends the stream: receivers drain what is
/// left, then get nil.
package final class BlockingChannel<Element: Sendable>: @unchecked Sendable {
    // @unchecked: `slots`, `head`, `count` and `closed` are only touched with `condition` held.
    private let condition = NSCondition()
    private let stop: WorkStop
    /// A ring of `capacity` slots; an element is moved out of its slot, never copied (a chunk's
    /// buffers stay uniquely owned, so whoever receives one writes into it without a copy).
    private var slots: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false

    package init(capacity: Int, stop: WorkStop) {
        slots = Array(repeating: nil, count: max(1, capacity))
        self.stop = stop
        stop.register(condition)
    }

    /// Appends `element`, waiting while the channel is full. The element is moved into the
    /// channel (`consuming`): the sender keeps no reference, so whoever receives a buffer owns it
    /// alone and writes into it without a copy.
    package func send(_ element: consuming Element) throws(WorkStop.Stopped) {
        condition.lock()
        defer { condition.unlock() }
        while count == slots.count, !stop.isStopped { condition.wait() }
        if stop.isStopped || closed { throw WorkStop.Stopped() }
        // Moved, not copied: a copy would live until this function returns, after the unlock, and
        // a receiver woken meanwhile would find the buffer shared and copy all of it on its first
        // write (a 1 MiB chunk copied, its pages faulted in, then unmapped).
        slots[(head + count) % slots.count] = consume element
        count += 1
        condition.broadcast()
    }

    /// The next element, waiting while the channel is empty; nil once it is closed and drained.
    package func receive() throws(WorkStop.Stopped) -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while count == 0, !closed, !stop.isStopped { condition.wait() }
        if stop.isStopped { throw WorkStop.Stopped() }
        guard count > 0 else { return nil }
        var element: Element? = nil
        swap(&element, &slots[head])
        head = (head + 1) % slots.count
        count -= 1
        condition.broadcast()
        return element
    }

    /// No more elements will be sent; receivers get nil once the rest is taken.
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
