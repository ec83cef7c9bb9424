import Foundation
import RelctlTestSupport
import Testing

@Test func versionPrintsVersionCommitAndDate() throws {
    let result = try relctl(["--version"], in: URL(fileURLWithPath: NSTemporaryDirectory()))
    #expect(result.status == 0)
    #expect(result.stdout.contains("relctl 0.1.0"))
    #expect(result.stdout.contains("commit:"))
    #expect(result.stdout.contains("built:"))
}
