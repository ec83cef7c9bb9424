import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlProject

/// `init` reads source files for a version no manifest names; a byte scan keeps files that quote
/// no three-number version away from the regexes. The scan may let through more than the regexes
/// take, never less.
@Suite("Unlocated version scan", .timeLimit(.minutes(30)), .removesTemporaries)
struct UnlocatedVersionScanTests {
    @Test func theScanSeesEveryQuotedThreeNumberVersion() {
        for text in [
            #"let version = "1.2.3""#, #"Version = "v10.20.30-rc.1""#, "x\n\"0.0.0\"", #"""1.2.3"#,
            #"a "1.2" then "4.5.6""#,
        ] {
            #expect(StarterConfig.quotesThreeNumberVersion(text), "\(text)")
        }
        for text in ["let version = 1.2.3", #""1.2""#, #""1.2.x""#, #""v1..2.3""#, #""vv1.2.3""#, "", #"""#] {
            #expect(!StarterConfig.quotesThreeNumberVersion(text), "\(text)")
        }
    }

    /// What the regexes found before the scan they still find: a declaration over two lines, one
    /// named after the project, a Go constant; a large file quoting no version is passed over.
    @Test func declarationsAreFoundAsBefore() throws {
        try withTemporaryDirectory { directory in
            let root = directory.url
            try directory.write("Package.swift", #"let package = Package(name: "Tool")"#)
            try directory.write("Sources/Tool/Tool.swift", "public let toolVersion: String =\n    \"2.4.1\"\n")
            try directory.write(
                "Sources/Tool/Tables.swift", String(repeating: "let table = [1, 2, 3] // version 1.2.3\n", count: 5000))
            let entries = StarterConfig.unlocatedVersionEntries(root: root, project: "tool")
            #expect(entries.map(\.path) == ["Sources/Tool/Tool.swift"])
            #expect(entries.first?.version == "2.4.1")

            try directory.write("go.mod", "module example.com/tool\n")
            try directory.write("version.go", "package tool\n\nconst Version = \"v3.1.0\"\n")
            let go = StarterConfig.unlocatedVersionEntries(root: root, project: "tool")
            #expect(go.contains { $0.path == "version.go" && $0.version == "3.1.0" })
        }
    }
}
