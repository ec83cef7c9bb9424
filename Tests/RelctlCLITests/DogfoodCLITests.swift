import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@Suite("relctl's own release config", .timeLimit(.minutes(60)), .removesTemporaries)
struct DogfoodCLITests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func ownWorkflowIsCurrent() throws {
        let result = try relctl(["ci", "generate", "--check"], in: Self.repositoryRoot)
        #expect(
            result.status == 0,
            "the committed workflow is stale; run `swift run relctl ci generate` at the repository root\n\(result)")
    }

    @Test func ownMatrixHasLinuxAndMacOS() throws {
        let result = try relctl(["matrix", "--format", "github"], in: Self.repositoryRoot)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(#""target":"x86_64-unknown-linux-gnu","runner":"ubuntu-latest""#))
        #expect(result.stdout.contains(#""target":"aarch64-apple-darwin","runner":"macos-14""#))
    }

    @Test func ownWorkflowPassesActionlintAndZizmor() throws {
        let workflow = ".github/workflows/release.yml"
        let lint = try CIGenerateCLITests.tool("actionlint", ["-no-color", workflow], in: Self.repositoryRoot)
        #expect(lint.status == 0, "\(lint)")
        let audit = try CIGenerateCLITests.tool(
            "zizmor", ["--offline", "--no-progress", workflow], in: Self.repositoryRoot)
        #expect(audit.status == 0, "\(audit)")
    }
}
