import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(30)), .removesTemporaries)
struct TemporaryScopeTests {
    struct Thrown: Error {}

    @Test func aScopeRemovesWhatWasMadeInItEvenWhenTheBodyThrows() async throws {
        let made = Mutex<[String]>([])
        await #expect(throws: Thrown.self) {
            try await TemporaryScope.run {
                let directory = try TemporaryDirectory(prefix: "relctl-scope")
                try directory.write("a/b.txt", "x")
                made.withLock { $0.append(directory.path) }
                throw Thrown()
            }
        }
        try await TemporaryScope.run {
            let directory = try TemporaryDirectory(prefix: "relctl-scope")
            made.withLock { $0.append(directory.path) }
            #expect(FileManager.default.fileExists(atPath: directory.path), "there while the scope runs")
        }
        let paths = made.withLock { $0 }
        #expect(paths.count == 2)
        #expect(paths.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "\(paths)")
    }

    /// The trait on this suite opened a scope for this test: a folder made here is tracked.
    @Test func theSuiteTraitOpensAScopePerTest() {
        #expect(TemporaryScope.current != nil)
    }
}
