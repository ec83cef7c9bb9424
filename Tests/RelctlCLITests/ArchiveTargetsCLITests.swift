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

/// manifest.json records each archive's target, so `relctl checksum` merging CI jobs' archives
/// keeps every target whatever `[archive] name` spells.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ArchiveTargetsCLITests {
    /// The fixture's relctl.toml with `text` added to its `[archive]` table, committed and pushed.
    private func setArchive(_ fixture: ReleaseFixture, _ text: String) throws {
        let config = try fixture.repository.directory.read("relctl.toml")
        try fixture.repository.commit(
            "chore: archive settings",
            files: ["relctl.toml": config.replacingOccurrences(of: "[archive]\n", with: "[archive]\n" + text)])
        try fixture.repository.git("push", "-q", "origin", "main")
    }

    /// The fzf case: `[archive] name = "{project}-{version}-{os}_{arch}"` spells no triple. Each CI
    /// job packages one target; the merge job has only the archives (and their `.sha256`/SBOM) and
    /// runs `relctl checksum dist`: manifest.json keeps every target, so the installer has a
    /// machine table and the notes an Install section.
    @Test func theCIMergeKeepsTargetsWhateverTheArchiveNameSpells() throws {
        let fixture = try ReleaseFixture(release: "\n[installer]\nenabled = true\n")
        try setArchive(fixture, "name = \"{project}-{version}-{os}_{arch}\"\n")
        let triples = ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"]
        let merged = fixture.url.appendingPathComponent("merged")
        try FileManager.default.createDirectory(at: merged, withIntermediateDirectories: true)
        for triple in triples {
            let out = "job-\(triple)"
            let built = try relctl(["build", "--target", triple, "--tag", "v1.0.0"], in: fixture.url)
            #expect(built.status == 0, "\(built)")
            let packaged = try relctl(
                ["package", "--tag", "v1.0.0", "--target", triple, "--out", out], in: fixture.url)
            #expect(packaged.status == 0, "\(packaged)")
            // What the job uploads: archives, their .sha256 and SBOMs (not its manifest.json).
            for name in try FileManager.default.contentsOfDirectory(
                atPath: fixture.url.appendingPathComponent(out).path)
            where name != "manifest.json" {
                try FileManager.default.copyItem(
                    at: fixture.url.appendingPathComponent(out).appendingPathComponent(name),
                    to: merged.appendingPathComponent(name))
            }
        }
        let summed = try relctl(["checksum", "merged"], in: fixture.url)
        #expect(summed.status == 0 && !summed.stderr.contains("without a target"), "\(summed)")
        let manifest = try #require(try ReleaseManifest.read(in: merged))
        #expect(manifest.artifacts.map(\.target).sorted() == triples.sorted(), "\(manifest.artifacts)")
        #expect(manifest.artifacts.allSatisfy { !$0.name.contains($0.target) }, "the names spell no triple")

        let installer = try relctl(["installer", "--dist", "merged", "--repository", "acme/demo"], in: fixture.url)
        #expect(installer.status == 0 && !installer.stderr.contains("refuse every machine"), "\(installer)")
        let script = try fixture.repository.directory.read("merged/demo-installer.sh")
        #expect(script.contains("linux-x86_64)") && script.contains("linux-aarch64)"), "\(script)")
        let notes = try relctl(["notes", "--dist", "merged"], in: fixture.url)
        #expect(notes.status == 0 && notes.stdout.contains("### Install"), "\(notes)")
        #expect(notes.stdout.contains("`x86_64-unknown-linux-gnu`"), "\(notes.stdout)")
    }
}
