import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlBasics
@testable import RelctlCore

/// manifest.json is written artifact by artifact (flat memory for very large releases); its bytes
/// must stay exactly what the whole-document encoder gave, which every earlier release wrote.
@Suite(.removesTemporaries) struct ReleaseManifestTests {
    private func artifact(_ name: String, target: String = "x86_64-unknown-linux-gnu", size: Int64 = 4096)
        -> ReleaseManifest.Artifact
    {
        ReleaseManifest.Artifact(
            name: name, target: target, format: ArtifactName.format(of: name) ?? "", size: size,
            sha256: String(repeating: "ab", count: 32))
    }

    @Test func theStreamedDocumentIsTheWholeDocumentByteForByte() throws {
        let shapes: [[ReleaseManifest.Artifact]] = [
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
}
