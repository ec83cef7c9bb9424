import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlModel

/// A version kept as a tuple (`version_info = (26, 1, 0)`), read and spelled back (`VersionTuple`).
@Suite("a version kept as a tuple", .timeLimit(.minutes(30)), .removesTemporaries)
struct VersionTupleTests {
    @Test func numbersAndReleaseLevelsReadAsTheirVersion() throws {
        #expect(VersionTuple(literal: "(26, 1, 0)")?.version == "26.1.0")
        #expect(VersionTuple(literal: "(7, 13, 0, \"alpha\", 0)")?.version == "7.13.0a0")
        #expect(VersionTuple(literal: "(3, 2, 'candidate', 1)")?.version == "3.2rc1")
        #expect(VersionTuple(literal: "(7, 13, 0, \"final\", 0)")?.version == "7.13.0")
        for bad in ["(1,)", "()", "(1, 2, \"x\", 0)", "(a, b)", "(1, 2, 3, 4, 5)", "(1, -2, 0)"] {
            #expect(VersionTuple(literal: bad) == nil, "\(bad)")
        }
    }

    @Test func aVersionIsSpelledInTheTuplesShape() throws {
        let plain = try #require(VersionTuple(literal: "(26, 1, 0)"))
        #expect(plain.spelling(of: "26.2.0") == "(26, 2, 0)")
        #expect(plain.spelling(of: "27.0") == "(27, 0, 0)")
        #expect(plain.spelling(of: "27.0.0rc1") == nil)
        #expect(plain.spelling(of: "27.0.0.1") == nil)
        let levelled = try #require(VersionTuple(literal: "(7, 13, 0, 'alpha', 0)"))
        #expect(levelled.spelling(of: "7.13.0") == "(7, 13, 0, 'final', 0)")
        #expect(levelled.spelling(of: "7.14.0b2") == "(7, 14, 0, 'beta', 2)")
        #expect(levelled.spelling(of: "7.14.0rc1") == "(7, 14, 0, 'candidate', 1)")
        #expect(levelled.spelling(of: "7.14.0.dev1") == nil)
    }

    /// gunicorn's `__version__ = ".".join(…)` is an expression: the tuple above it is the version.
    @Test func anExpressionIsNoVersionAndTheTupleIs() throws {
        let folder = try TemporaryDirectory(prefix: "version-tuple")
        try folder.write(
            "pkg/__init__.py",
            "version_info = (26, 1, 0)\n__version__ = \".\".join([str(v) for v in version_info])\n")
        let found = try ManifestReaders.read(VersionSource(path: "pkg/__init__.py", kind: "python"), root: folder.url)
        #expect(found.text == "26.1.0")
        #expect(found.tuple == "(26, 1, 0)")
        #expect(found.line == 1)
        try folder.write("pkg/__init__.py", "__version__ = \"2.0.1\"  # the release\n")
        let literal = try ManifestReaders.read(VersionSource(path: "pkg/__init__.py", kind: "python"), root: folder.url)
        #expect(literal.text == "2.0.1" && literal.tuple == nil)
    }
}
