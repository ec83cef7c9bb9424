import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// One repository listed twice in a workspace is refused up front (issue 26, item 18).
@Suite("relctl train: a repository listed twice", .timeLimit(.minutes(45)), .removesTemporaries)
struct TrainWorkspaceTwiceCLITests {
    @Test(arguments: ["a", "linked"])
    func theSameRepositoryTwiceIsBadInput(secondPath: String) throws {
        try withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(
                at: directory.url.appendingPathComponent("a"), withIntermediateDirectories: true)
            #expect(try run("git", ["init", "-q", "a"], in: directory.url).status == 0)
            try FileManager.default.createSymbolicLink(
                atPath: directory.url.appendingPathComponent("linked").path, withDestinationPath: "a")
            try directory.write(
                "ws.toml",
                """
                [[repo]]
                name = "core"
                path = "a"
                [[repo]]
                name = "core-again"
                path = "\(secondPath)"
                """)
            for command in ["plan", "run"] {
                let result = try relctl(["train", command, "v1.0.0", "--workspace", "ws.toml"], in: directory.url)
                #expect(result.status == 2, "\(result)")
                #expect(
                    result.stderr.contains(
                        "[[repo]] `core` (`a`) and `core-again` (`\(secondPath)`) are the same repository"),
                    "\(result)")
            }
        }
    }
}
