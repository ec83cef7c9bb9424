import Foundation
import RelctlTestTraits
import Testing

/// Where test bodies run (`TestThreads`, `RemovesTemporaries`): the suite's longest test
/// (`.startsAtOnce`) on a thread of its own from the start, the others on the shared threads.
@Suite("The test threads", .timeLimit(.minutes(30)), .removesTemporaries)
struct TestThreadsTests {
    @Test(.startsAtOnce) func aTestMarkedStartsAtOnceRunsOnAThreadOfItsOwn() {
        #expect(Thread.current.name == "relctl-at-once")
    }

    @Test func anyOtherTestWaitsForAPlaceOnTheSharedThreads() {
        let name = Thread.current.name ?? ""
        if TestThreads.shared == nil {
            // RELCTL_TEST_THREADS=0: the cooperative pool, none of the test threads.
            #expect(!name.hasPrefix("relctl-test-"), "\(name)")
        } else {
            #expect(name.hasPrefix("relctl-test-") && name != "relctl-at-once", "\(name)")
        }
    }
}
