import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// reprotest, Debian's reproducible-builds tester, as an outside judge of relctl's packaging:
/// `scripts/reprotest-example` builds the example twice, the second time with reprotest's
/// variations, and dist/ must come out identical.
@Suite("reprotest on the example's packaging", .timeLimit(.minutes(60)), .removesTemporaries)
struct ReprotestCLITests {
    /// Every variation but user_group, which needs sudo and a second account on the machine:
    /// environment, build path, kernel (setarch), aslr, number of CPUs (taskset), time (faketime),
    /// file ordering (disorderfs), domain and host name (unshare), home, locales, exec path,
    /// time zone and umask.
    static let variations = "+all,-user_group"

    @Test func examplePackagingSurvivesReprotestVariations() throws {
        let result = try run(
            DogfoodCLITests.repositoryRoot.appendingPathComponent("scripts/reprotest-example").path,
            [relctlBinary.path, Self.variations], in: DogfoodCLITests.repositoryRoot)
        #expect(result.status == 0, "\(result)")
        let output = result.stdout + result.stderr
        #expect(
            output.contains("Reproduction successful") && output.contains("No differences in ./dist/*"), "\(result)")
        // The variations were applied, not skipped: reprotest names each one it varied.
        for variation in ["FAKETIME variation", "DISORDERFS variation", "UMASK variation", "LOCALE variation"] {
            #expect(output.contains(variation), "\(variation) missing: \(result)")
        }
    }
}
