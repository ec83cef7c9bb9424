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

    public let width: Int
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var head = 0

    init(width: Int) {
        self.width = width
        for index in 0..<width {
            let thread = Thread { [unowned self] in self.serve() }
            thread.name = "relctl-test-\(index)"
            // Test bodies wait on children with the default 8 MiB the pool's threads have.
            thread.stackSize = 8 << 20
            thread.start()
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
