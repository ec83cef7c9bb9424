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

@Suite("AbsolutePath", .timeLimit(.minutes(30)), .removesTemporaries)
struct AbsolutePathTests {
    @Test func aRelativePathIsRelativeToTheBaseItNames() {
        let root = AbsolutePath(absolute: "/work/project")!
        #expect(AbsolutePath("dist", relativeTo: root).pathString == "/work/project/dist")
        #expect(
            AbsolutePath("./keys/../keys//release.key", relativeTo: root).pathString == "/work/project/keys/release.key"
        )
        #expect(AbsolutePath("../core.git", relativeTo: root).pathString == "/work/core.git")
        // Absolute paths are taken as written, only normalised.
        #expect(AbsolutePath("/etc/./relctl/", relativeTo: root).pathString == "/etc/relctl")
        #expect(AbsolutePath("/../..", relativeTo: root) == .root)
    }

    @Test func onlyAnAbsoluteStringIsALocationByItself() {
        #expect(AbsolutePath(absolute: "relctl.toml") == nil)
        #expect(AbsolutePath(absolute: "") == nil)
        #expect(AbsolutePath(absolute: "//tmp//x/")?.pathString == "/tmp/x")
    }

    @Test func twoSpellingsOfOnePlaceAreEqual() {
        let a = AbsolutePath(URL(fileURLWithPath: "/tmp/a/b/../c"))
        let b = AbsolutePath(absolute: "/tmp/a/c/.")!
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a.basename == "c" && a.parent.pathString == "/tmp/a" && AbsolutePath.root.parent == .root)
        #expect(a.appending("d/e").url.path == "/tmp/a/c/d/e")
        #expect(a.appending(name: "f.txt").pathString == "/tmp/a/c/f.txt")
        #expect(AbsolutePath.root.appending(name: "etc").pathString == "/etc")
    }

    /// The config, a workspace file, git and the environment all hand relctl path strings; each
    /// becomes a location through `AbsolutePath`, which makes the caller name the base. A bare
    /// `URL(fileURLWithPath:)` would bind a relative string to relctl's working directory.
    @Test func noSourceFileTurnsAStringIntoALocationAnyOtherWay() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources").standardizedFileURL
        let listing = try run("grep", ["-rln", "--include=*.swift", "URL(fileURLWithPath", sources.path])
        let offenders = listing.stdout.split(separator: "\n").map { String($0.dropFirst(sources.path.count + 1)) }
        #expect(offenders == ["RelctlBasics/Support/AbsolutePath.swift"], "\(offenders)")
    }
}
