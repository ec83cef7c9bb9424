import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Test(.timeLimit(.minutes(45)), .removesTemporaries) func versionPrintsVersionCommitAndDate() throws {
    let result = try relctl(["--version"], in: URL(fileURLWithPath: NSTemporaryDirectory()))
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "relctl \(RelctlVersion.version)")
    #expect(lines.count == 3)
    #expect(lines.dropFirst().first?.hasPrefix("commit: ") == true)
    #expect(lines.last?.hasPrefix("built: ") == true)
}
