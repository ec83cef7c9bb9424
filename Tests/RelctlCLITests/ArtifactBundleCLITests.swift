import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts

/// `format = ["tar.gz", "artifactbundle"]` (issue 58, item 6): a release ships one SwiftPM
/// artifact bundle holding every asking target's binaries, listed in SHA256SUMS and manifest.json,
/// with the `binaryTarget` line in the notes carrying the checksum SwiftPM computes.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ArtifactBundleCLITests {
    @Test func aReleaseShipsOneArtifactBundleOfItsLinuxTargets() throws {
        let fixture = try ReleaseFixture()
        let config = try fixture.repository.directory.read("relctl.toml")
        let edited = config.replacingOccurrences(
            of: "-linux-gnu\"\n", with: "-linux-gnu\"\nformat = [\"tar.gz\", \"artifactbundle\"]\n")
        #expect(edited.components(separatedBy: "artifactbundle").count == 3, "both targets ask: \(edited)")
        try fixture.repository.commit("chore: artifact bundle", files: ["relctl.toml": edited])
        try fixture.repository.git("push", "-q", "origin", "main")
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 0, "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")

        let dist = fixture.url.appendingPathComponent("dist")
        let name = "demo-1.0.0.artifactbundle.zip"
        let bundle = dist.appendingPathComponent(name)
        #expect(FileManager.default.fileExists(atPath: bundle.path), "\(name) in dist/")
        let sums = try fixture.repository.directory.read("dist/SHA256SUMS")
        let listed = sums.split(separator: "\n").map { String($0.split(separator: " ").last ?? "") }
        #expect(listed.contains(name), "\(sums)")
        #expect(listed.contains("demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"), "the archives stay: \(sums)")
        let verified = try run("sha256sum", ["-c", "SHA256SUMS"], in: dist)
        #expect(verified.status == 0, "\(verified)")
        let manifest = try #require(try ReleaseManifest.read(in: dist))
        #expect(
            manifest.artifacts.contains { $0.name == name && $0.format == ArtifactBundle.format },
            "\(manifest.artifacts)")
        #expect(!manifest.archives.contains { $0.name == name }, "not a platform archive")

        let reader = """
            import json, sys, zipfile
            with zipfile.ZipFile(sys.argv[1]) as bundle:
                info = json.loads(bundle.read("demo-1.0.0.artifactbundle/info.json"))
            variants = info["artifacts"]["hello"]["variants"]
            print(json.dumps({"schema": info["schemaVersion"],
                              "triples": sorted(t for v in variants for t in v["supportedTriples"])}))
            """
        let read = try run("python3", ["-c", reader, bundle.path])
        #expect(read.status == 0, "\(read)")
        let info = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(info["schema"] as? String == "1.0", "\(info)")
        #expect(
            info["triples"] as? [String] == ["aarch64-unknown-linux-gnu", "x86_64-unknown-linux-gnu"], "\(info)")

        // The notes' binaryTarget checksum is the one SwiftPM computes for the file.
        let computed = try run("swift", ["package", "compute-checksum", bundle.path], in: fixture.url)
        #expect(computed.status == 0, "\(computed)")
        let checksum = computed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(checksum.count == 64, "\(computed)")
        let notes = try relctl(["notes", "--tag", "v1.0.0"], in: fixture.url)
        #expect(notes.status == 0, "\(notes)")
        let line = notes.stdout.split(separator: "\n").first { $0.hasPrefix(".binaryTarget(") }
        #expect(line?.contains("name: \"demo\", url: \"") == true, "\(notes.stdout)")
        #expect(line?.contains(name) == true, "\(notes.stdout)")
        #expect(line?.hasSuffix("checksum: \"\(checksum)\")") == true, "\(notes.stdout)")

        // One target's job (CI) writes no partial bundle under the release-wide name.
        let partial = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "x86_64-unknown-linux-gnu", "--out", "partial"], in: fixture.url)
        #expect(partial.status == 0, "\(partial)")
        #expect(partial.stderr.contains("no artifact bundle written"), "\(partial.stderr)")
        #expect(
            !FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("partial/\(name)").path),
            "no partial bundle")

        // Packaging the release again gives the same bytes.
        let again = try relctl(["package", "--tag", "v1.0.0", "--out", "again"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        let second = fixture.url.appendingPathComponent("again").appendingPathComponent(name)
        #expect(try Data(contentsOf: second) == Data(contentsOf: bundle), "a second run differs")
    }

    /// Only a Windows target asks for the bundle: refused (exit 2) naming the format, nothing written.
    @Test func aWindowsOnlyBundleIsRefused() throws {
        let fixture = try ReleaseFixture()
        let config = try fixture.repository.directory.read("relctl.toml")
        let edited = config.replacingOccurrences(
            of: "[[target]]\ntriple = \"aarch64-unknown-linux-gnu\"\n",
            with: "[[target]]\ntriple = \"x86_64-pc-windows-msvc\"\nformat = \"artifactbundle\"\n")
        #expect(edited != config)
        try fixture.repository.commit("chore: windows bundle", files: ["relctl.toml": edited])
        let packaged = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "x86_64-pc-windows-msvc", "--out", "bundle"], in: fixture.url)
        #expect(packaged.status == 2, "\(packaged)")
        #expect(packaged.stderr.contains("\"artifactbundle\""), "\(packaged.stderr)")
        // A folder that cannot be listed is not an empty one (issue 62): folderNames throws.
        let written = try folderNames(fixture.url.appendingPathComponent("bundle"))
        #expect(!written.contains { $0.hasSuffix(".zip") }, "\(written)")
    }
}
