import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts

/// The SwiftPM artifact bundle writer (issue 58, item 6, before it is reachable from relctl.toml):
/// its zip read back by Python's zipfile, the same bytes twice, and its checksum the one the real
/// `swift package compute-checksum` prints.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ArtifactBundleTests {
    @Test func swiftTriplesOfRelctlsTargets() {
        #expect(ArtifactBundle.swiftTriples("aarch64-apple-darwin") == ["arm64-apple-macosx"])
        #expect(ArtifactBundle.swiftTriples("universal-apple-darwin") == ["arm64-apple-macosx", "x86_64-apple-macosx"])
        #expect(ArtifactBundle.swiftTriples("x86_64-unknown-linux-gnu") == ["x86_64-unknown-linux-gnu"])
        #expect(ArtifactBundle.swiftTriples("aarch64-unknown-linux-musl") == ["aarch64-swift-linux-musl"])
        #expect(ArtifactBundle.swiftTriples("x86_64-pc-windows-msvc") == nil)
    }

    @Test func aBundleIsReproducibleAndHasSwiftPMsChecksum() async throws {
        let folder = try TemporaryDirectory(prefix: "relctl-bundle")
        var variants: [ArtifactBundle.Variant] = []
        for triple in ["x86_64-apple-darwin", "aarch64-unknown-linux-gnu", "x86_64-pc-windows-msvc"] {
            let suffix = triple.contains("windows") ? ".exe" : ""
            let binary = try folder.write("\(triple)/hello\(suffix)", "#!/bin/sh\necho \(triple)\n", executable: true)
            variants.append(ArtifactBundle.Variant(triple: triple, binaries: [("hello", binary)]))
        }
        let layout = try ArtifactBundle.layout(
            project: "hello", version: "1.2.0", binaries: ["hello"], variants: variants)
        #expect(layout.fileName == "hello-1.2.0.artifactbundle.zip")
        let format = try ArchiveWriterFormats.format("zip")
        let first = folder.url.appendingPathComponent("one/hello.artifactbundle.zip")
        let second = folder.url.appendingPathComponent("two/hello.artifactbundle.zip")
        for url in [first, second] {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let written = try await ArchiveFile.write(layout, format: format, level: nil, mtime: 1_700_000_000, to: first)
        _ = try await ArchiveFile.write(layout, format: format, level: nil, mtime: 1_700_000_000, to: second)
        #expect(try Data(contentsOf: first) == Data(contentsOf: second), "two writes differ")

        let reader = """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as bundle:
                print(json.dumps({"names": bundle.namelist(),
                                  "info": json.loads(bundle.read("hello-1.2.0.artifactbundle/info.json"))}))
            """
        let read = try run("python3", ["-c", reader, first.path])
        #expect(read.status == 0, "\(read)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        let names = try #require(object["names"] as? [String])
        #expect(names.contains("hello-1.2.0.artifactbundle/hello-1.2.0-x86_64-apple-darwin/bin/hello"), "\(names)")
        #expect(names.contains("hello-1.2.0.artifactbundle/hello-1.2.0-aarch64-unknown-linux-gnu/bin/hello"), "\(names)")
        #expect(!names.contains { $0.contains("windows") }, "\(names)")
        let info = try #require(object["info"] as? [String: Any])
        #expect(info["schemaVersion"] as? String == "1.0")
        let hello = try #require((info["artifacts"] as? [String: Any])?["hello"] as? [String: Any])
        #expect(hello["version"] as? String == "1.2.0" && hello["type"] as? String == "executable")
        let paths = (hello["variants"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String }
        #expect(
            paths == ["hello-1.2.0-x86_64-apple-darwin/bin/hello", "hello-1.2.0-aarch64-unknown-linux-gnu/bin/hello"],
            "\(paths)")

        // SwiftPM's own checksum of the file is the SHA-256 relctl computed while writing it.
        let checksum = try run("swift", ["package", "compute-checksum", first.path], in: folder.url)
        #expect(checksum.status == 0, "\(checksum)")
        #expect(checksum.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == written.sha256)
    }
}
