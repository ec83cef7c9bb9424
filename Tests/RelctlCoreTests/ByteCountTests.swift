import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ByteCountTests {
    @Test func humanSizes() {
        #expect(ByteCount.format(512) == "512 B")
        #expect(ByteCount.format(3_482) == "3.40 KiB")
        #expect(ByteCount.format(85_899_345) == "81.9 MiB")
        #expect(ByteCount.format(1_288_490_189) == "1.20 GiB")
    }
}
