import Foundation
import RelctlArtifacts
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// manifest.json is written artifact by artifact (flat memory for very large releases); its bytes
/// must stay exactly what the whole-document encoder gave, which every earlier release wrote.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ReleaseManifestTests {
    private func artifact(
        _ name: String, target: String = "x86_64-unknown-linux-gnu", size: Int64 = 4096
    )
        -> Artifact
    {
        Artifact(
            name: name, target: target, format: ArtifactName.format(of: name) ?? "", size: size,
            sha256: String(repeating: "ab", count: 32))
    }

    @Test func theStreamedDocumentIsTheWholeDocumentByteForByte() throws {
        let shapes: [[Artifact]] = [
            [],
            [artifact("velo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz")],
            [
                artifact("a \"quoted\" name.zip", target: ""),
                artifact("back\\slash/and-slash.tar.xz", size: 0),
                artifact("ünïcode-名前-v1.0.0.tar.zst", size: Int64.max),
                artifact("velostream-installer.sh", target: ""),
            ],
            (0..<50).map { artifact("scale-v1.0.0-t\($0).tar.gz", target: "t\($0)") },
        ]
        for (index, artifacts) in shapes.enumerated() {
            for commit in ["", "0123456789abcdef0123456789abcdef01234567"] {
                let manifest = ReleaseManifest(
                    project: "velo \"stream\"", tag: "v1.0.0", version: "1.0.0", commit: commit, artifacts: artifacts)
                let whole = try JSONOutput.encode(manifest)
                let streamed = try manifest.encoded()
                #expect(streamed == whole, "shape \(index): \(streamed)")
                #expect(try JSONDecoder().decode(ReleaseManifest.self, from: Data(streamed.utf8)) == manifest)
            }
        }
    }

    /// A folder scan reads only the last manifest's release fields; the artifacts array is skipped
    /// as it streams by. Whatever the artifacts hold (brackets and quotes in names, nesting), the
    /// header must be the full reader's, with no artifacts.
    @Test func theHeaderReaderSkipsTheArtifactsAndKeepsEveryOtherField() throws {
        try withTemporaryDirectory { dir in
            let tricky = [
                artifact("a ] \"quoted\" [ name.zip", target: ""),
                artifact("back\\slash\\\"}].tar.xz", size: 0),
                artifact("{\"artifacts\" : [1]}.tar.gz"),
            ]
            for artifacts in [[], tricky, (0..<300).map { artifact("scale-v1.0.0-t\($0).tar.gz") }] {
                let manifest = ReleaseManifest(
                    project: "velo \"artifacts\" : [", tag: "v1.0.0", version: "1.0.0",
                    commit: "0123456789abcdef0123456789abcdef01234567", artifacts: artifacts)
                try manifest.write(in: dir.url)
                var expected = try #require(try ReleaseManifest.read(in: dir.url))
                #expect(expected.artifacts == artifacts)
                expected.artifacts = []
                #expect(try ReleaseManifest.readHeader(in: dir.url) == expected)
            }
            // Another program's key order, compact: the array is found by its key, not its place.
            try dir.write(
                "manifest.json",
                #"{"tag":"v2.0.0","artifacts":[{"name":"x]","target":"","format":"zip","size":1,"sha256":"00"}],"commit":"c","schema":1,"project":"p","version":"2.0.0"}"#
            )
            let header = try #require(try ReleaseManifest.readHeader(in: dir.url))
            #expect(header.tag == "v2.0.0" && header.project == "p" && header.commit == "c" && header.artifacts.isEmpty)
            try dir.write("manifest.json", "not json")
            #expect(throws: ChecksumError.self) { try ReleaseManifest.readHeader(in: dir.url) }
            #expect(try ReleaseManifest.readHeader(in: dir.url.appendingPathComponent("missing")) == nil)
        }
    }

    /// Digests are kept inline when they are canonical SHA-256s; anything else is kept as text.
    /// Either way the text given is the text read back.
    @Test func storedDigestsGiveBackTheirText() {
        let canonical = String(repeating: "0123456789abcdef", count: 4)
        for text in [canonical, canonical.uppercased(), String(repeating: "ab", count: 64), "xyz", "", canonical + "0"]
        {
            #expect(StoredHex(text).text == text)
            #expect((StoredHex(text).sha256 != nil) == (text == canonical))
        }
        let entry = ChecksumFile.Entry(name: "a.tar.gz", digest: canonical.uppercased(), algorithm: .sha256)
        #expect(entry.digest == canonical)
        #expect(entry == ChecksumFile.Entry(name: "a.tar.gz", sha256: SHA256Bytes(hex: canonical)))
        var artifact = artifact("a.tar.gz")
        artifact.sha256 = "not-hex"
        #expect(artifact.sha256 == "not-hex")
    }
}
