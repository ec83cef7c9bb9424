import Foundation
import Synchronization

/// Bounded parallelism in structured concurrency: every job runs in a child task, at most
/// `limit` at once, and results come back in input order. Used for builds, archives and hashes
/// alike, so `--jobs N` means the same thing everywhere.
package enum ParallelJobs {
    /// `--jobs` as given, else one job per core: the one default of every command and stage.
    package static func count(_ jobs: Int?) -> Int {
        max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// What is wrong with a `--jobs` value, checked once where the command line parses it.
    package static func problem(_ jobs: Int?) -> String? {
        if let jobs, jobs < 1 { return "--jobs must be at least 1" }
        return nil
    }

    /// Runs `job` for each item, at most `limit` at a time; `finished` sees each result as it
    /// lands (for progress), in completion order. When `stopsTheRest` says so of a result (a full
    /// disk under one archive), the jobs still running are cancelled and the rest start cancelled,
    /// so each ends at once with its own result (a `CancellationError` failure) instead of
    /// running on.
    package static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], limit: Int,
        finished: (Int, Output) -> Void = { _, _ in },
        stopsTheRest: (Output) -> Bool = { _ in false },
        _ job: @escaping @Sendable (Item) async -> Output
    ) async -> [Output] {
        var results = [Output?](repeating: nil, count: items.count)
        await withTaskGroup(of: (Int, Output).self) { group in
            var next = 0
            func startNext() {
                guard next < items.count else { return }
                let index = next, item = items[index]
                next += 1
                group.addTask { (index, await job(item)) }
            }
            for _ in 0..<max(1, min(limit, items.count)) { startNext() }
            for await (index, output) in group {
                results[index] = output
                finished(index, output)
                if stopsTheRest(output) { group.cancelAll() }
                startNext()
            }
        }
        return results.map { $0! }
    }
}

/// A count shared by concurrent jobs (archives written so far, for progress).
package final class Counter: Sendable {
    private let value = Atomic<Int>(0)

    package init() {}

    /// Adds one and returns the new count.
    package func increment() -> Int {
        value.add(1, ordering: .relaxed).newValue
    }
}
