import Crypto
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

/// The streamed SBOM (issue 31: an archive of 100,000 files made JSONEncoder hold ~270 MB) must
/// be the very bytes JSONEncoder gives for the whole document, whatever the paths hold.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct SBOMStreamTests {
    static func file(_ path: String, folder: String = "demo-v1.0.0-x86_64-unknown-linux-gnu") -> ArchivedFile {
        ArchivedFile(folder: folder, entryPath: path, digest: SHA256.hash(data: Data(path.utf8)), size: 7)
    }

    static func subject(_ files: [ArchivedFile]) -> SBOMBuilder.Subject {
        SBOMBuilder.Subject(
            project: "demo", tag: "v1.0.0", version: "1.0.0",
            archiveName: "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz",
            archiveSHA256: String(repeating: "ab", count: 32), time: 1_700_000_000, files: files)
    }

    static let dependencies = [
        SBOMDocument.Component(
            type: "library", bomRef: "pkg:cargo/serde@1.0.0", name: "serde", version: "1.0.0",
            purl: "pkg:cargo/serde@1.0.0")
    ]

    func streamed(_ subject: SBOMBuilder.Subject) throws -> String {
        var bytes: [UInt8] = []
        try SBOMJSONStream.write(subject, dependencies: Self.dependencies) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    func whole(_ subject: SBOMBuilder.Subject) throws -> String {
        try JSONOutput.encode(SBOMBuilder.document(for: subject, dependencies: Self.dependencies))
    }

    @Test(arguments: [0, 1, 2, 3, 2_500])
    func plainPathsGiveJSONEncodersBytes(count: Int) throws {
        let files = (0..<count).map { Self.file("share/doc/f\(String(format: "%05d", $0)).txt") }
        let subject = Self.subject(files)
        #expect(try streamed(subject) == whole(subject))
    }

    @Test func pathsJSONMustEscapeGiveJSONEncodersBytes() throws {
        let paths = [
            #"a"quote"#, #"back\slash"#, "tab\there", "new\nline", "bell\u{07}", "del\u{7f}", "caf\u{e9}/men\u{fc}",
            "\u{2028}separator", "emoji \u{1F600}", "sl/as/h", "ctrl\u{1f}x", "\u{0}nul",
        ]
        let subject = Self.subject(paths.map { Self.file($0) })
        #expect(try streamed(subject) == whole(subject))
    }

    @Test func unsortedFilesAreSortedAsTheDocumentSortsThem() throws {
        let subject = Self.subject([Self.file("b"), Self.file("a/z"), Self.file("a"), Self.file("B")])
        let text = try streamed(subject)
        #expect(text == (try whole(subject)))
        let upper = try #require(text.range(of: "/B\","))
        let lower = try #require(text.range(of: "/a\","))
        #expect(upper.lowerBound < lower.lowerBound, "bytewise: B (0x42) before a (0x61)")
    }

    @Test func writtenFileHasTheStreamsBytesAndTheirDigests() throws {
        let directory = try TemporaryDirectory()
        let subject = Self.subject((0..<300).map { Self.file("bin/tool\($0)") })
        let written = try SBOMBuilder.write(
            subject, dependencies: Self.dependencies, stem: "demo-v1.0.0-x86_64-unknown-linux-gnu", in: directory.url)
        let bytes = try Data(contentsOf: directory.url.appendingPathComponent(written.name))
        #expect(String(decoding: bytes, as: UTF8.self) == (try whole(subject)))
        #expect(written.sha256 == FileHasher.hex(SHA256.hash(data: bytes)))
        #expect(written.sha512 == FileHasher.hex(SHA512.hash(data: bytes)))
        #expect(written.name == "demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json")
    }

    @Test func archivedFileKeepsPathDigestAndSize() {
        let digest = SHA256.hash(data: Data("x".utf8))
        let file = ArchivedFile(folder: "top", entryPath: "bin/x", digest: digest, size: 9)
        #expect(file.path == "top/bin/x")
        #expect(file.sha256 == FileHasher.hex(digest))
        #expect(file.size == 9)
        #expect(file == ArchivedFile(path: "top/bin/x", sha256: FileHasher.hex(digest), size: 9))
        #expect(
            ArchivedFile(path: "p", sha256: String(repeating: "0f", count: 32), size: 1).sha256
                == String(repeating: "0f", count: 32))
    }
}
