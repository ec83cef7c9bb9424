import Foundation

/// The threads test bodies run on, instead of Swift's cooperative pool.
///
/// Most tests are synchronous: they block their thread while a child (git, relctl, a stand-in's
/// answer) runs. On the cooperative pool (one thread per core) two such tests held both threads of
/// a 2-core machine while their children slept on I/O, and every other test waited: the cores
/// idled for much of `make test` (issue 62). `RemovesTemporaries`, which every test carries, runs
/// each test case with these threads as its task executor preference, so a blocked test holds
/// one of `width` threads, and the cores have other tests' children to run meanwhile.
///
/// `RELCTL_TEST_THREADS` sets the width (default four per core, at least four); `0` leaves tests
/// on the cooperative pool, as before (to measure one against the other).
public final class TestThreads: TaskExecutor, @unchecked Sendable {
    /// The shared threads, or nil with `RELCTL_TEST_THREADS=0`.
    public static let shared: TestThreads? = {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let text = ProcessInfo.processInfo.environment["RELCTL_TEST_THREADS"] ?? ""
        let width = Int(text) ?? max(4, 4 * cores)
        return width > 0 ? TestThreads(width: width) : nil
    }()

    /// One thread of its own, for a test that must not wait for a place in the shared queue
    /// (`StartsAtOnce`). Its thread stays parked once the test has ended.
    public static func dedicated() -> TestThreads { TestThreads(width: 1, name: "relctl-at-once") }

    public let width: Int
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    init(width: Int, name: String? = nil) {
        self.width = width
        for index in 0..<width {
            // Each thread is a dispatch worker that serves the queue for good. Not a Foundation
            // `Thread`: the Swift runtime ran no job on one (a task with this executor as its
            // preference ran on the cooperative pool all the same, as /proc/thread-self/comm
            // showed), so every test body held a pool thread (TestThreadsTests checks this).
            // Dispatch's threads have the pool threads' default 8 MiB stack. (A thread's name is at
            // most 15 bytes on Linux: a longer one is not set.)
            let label = name ?? "relctl-test-\(index)"
            DispatchQueue(label: label).async { [unowned self] in
                Thread.current.name = label
                self.serve()
            }
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        condition.lock()
        jobs.append(unowned)
        condition.signal()
        condition.unlock()
    }

    private func serve() {
        while true {
            condition.lock()
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
