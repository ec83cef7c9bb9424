import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The leftover checks cannot pass by failing to look (issue 62's mutation audit): a folder that
/// cannot be listed is an error, not an empty folder, and a checksum file naming a file that is
/// gone is not whole.
@Suite("Leftover checks look for real", .timeLimit(.minutes(30)), .removesTemporaries)
struct FolderListingTests {
    @Test func aMissingFolderHoldsNothing() throws {
        let root = try TemporaryDirectory(prefix: "relctl-listing")
        #expect(try folderNames(root.url.appendingPathComponent("dist")).isEmpty)
    }

    @Test func aFileWhereTheFolderShouldBeIsAnError() throws {
        let root = try TemporaryDirectory(prefix: "relctl-listing")
        let dist = root.url.appendingPathComponent("dist")
        try Data("not a folder".utf8).write(to: dist)
        #expect(throws: (any Error).self) { try folderNames(dist) }
    }

    @Test func aDanglingLinkWhereTheFolderShouldBeIsAnError() throws {
        let root = try TemporaryDirectory(prefix: "relctl-listing")
        let dist = root.url.appendingPathComponent("dist")
        try FileManager.default.createSymbolicLink(atPath: dist.path, withDestinationPath: "/nonexistent/relctl-dist")
        #expect(throws: (any Error).self) { try folderNames(dist) }
    }

    @Test func aListedFolderIsListedInOrder() throws {
        let root = try TemporaryDirectory(prefix: "relctl-listing")
        for name in ["b", "a", ".hidden"] { try Data().write(to: root.url.appendingPathComponent(name)) }
        #expect(try folderNames(root.url) == [".hidden", "a", "b"])
    }

    @Test func aChecksumFileNamingAMissingFileIsNotWhole() throws {
        let root = try TemporaryDirectory(prefix: "relctl-listing")
        try Data("kept\n".utf8).write(to: root.url.appendingPathComponent("kept.tar.gz"))
        let kept = try sh("sha256sum kept.tar.gz", in: root.url).stdout
        let gone = String(repeating: "0", count: 64) + "  gone.tar.gz\n"
        try Data((kept + gone).utf8).write(to: root.url.appendingPathComponent("SHA256SUMS"))
        let problems = try WriteFaults.wholenessProblems(root.url)
        #expect(problems.count == 1 && problems[0].contains("gone.tar.gz"), "\(problems)")
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("SHA256SUMS"))
        try Data(kept.utf8).write(to: root.url.appendingPathComponent("SHA256SUMS"))
        #expect(try WriteFaults.wholenessProblems(root.url).isEmpty)
    }

    @Test func anUnlistableFolderFailsTheWholenessCheck() throws {
        let root = try TemporaryDirectory(prefix: "relctl-listing")
        let dist = root.url.appendingPathComponent("dist")
        try Data("not a folder".utf8).write(to: dist)
        #expect(throws: (any Error).self) { try WriteFaults.wholenessProblems(dist) }
    }
}
