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

/// What a release writes, as the contract states it: `release --dry-run --json` `distFiles` names
/// exactly what the real run writes, on every config shape; `verify` on a tag-only project.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ReleaseFilesCLITests {
    struct Plan: Decodable {
        var ok: Bool
        var distFiles: [String]
    }

    private func distNames(_ fixture: ReleaseFixture) throws -> [String] {
        let dist = fixture.url.appendingPathComponent("dist")
        return (try folderNames(dist.path)).filter { !$0.hasPrefix(".") }
            .sorted()
    }

    /// A library released as a tag only (no `[[target]]`), pushed to a bare remote.
    static func tagOnlyProject() throws -> (GitRepository, TemporaryDirectory) {
        let repository = try GitRepository()
        let remote = try repository.addBareRemote()
        try repository.commit(
            "feat: a library",
            files: [
                "relctl.toml": "[project]\nname = \"lib\"\n\n[[version]]\npath = \"VERSION\"\n", "VERSION": "1.0.0\n",
                ".gitignore": "dist/\n",
            ])
        try repository.git("push", "-q", "origin", "main")
        return (repository, remote)
    }

    /// The dry run's `distFiles`, the real run's, and what dist/ holds afterwards are one list.
    private func expectSameFiles(_ fixture: ReleaseFixture, shape: String) throws -> [String] {
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(shape): \(dry)")
        let predicted = try JSONDecoder().decode(Plan.self, from: Data(dry.stdout.utf8)).distFiles
        let real = try relctl(["release", "v1.0.0", "--json"], in: fixture.url)
        #expect(real.status == 0, "\(shape): \(real)")
        let written = try JSONDecoder().decode(Plan.self, from: Data(real.stdout.utf8)).distFiles
        #expect(!predicted.isEmpty, "\(shape): the dry run names no file")
        #expect(predicted == written, "\(shape): dry run \(predicted), real run \(written)")
        #expect(try distNames(fixture) == written, "\(shape): dist/ holds \((try? distNames(fixture)) ?? []), the plan says \(written)")
        return written
    }

    @Test func theDryRunNamesEveryFileTheRealRunWrites() throws {
        let archives = ["demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz", "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"]
        let sboms = ["demo-v1.0.0-aarch64-unknown-linux-gnu.cdx.json", "demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json"]
        let common = ["RELEASE_NOTES.md", "SHA256SUMS", "manifest.json"] + archives + archives.map { $0 + ".sha256" }

        let plain = try ReleaseFixture(release: "\n[sbom]\nenabled = false\n")
        #expect(try expectSameFiles(plain, shape: "plain") == common.sorted())

        let withSBOM = try ReleaseFixture()
        #expect(try expectSameFiles(withSBOM, shape: "sbom") == (common + sboms).sorted())

        let installer = try ReleaseFixture(release: "\n[installer]\nenabled = true\n")
        #expect(
            try expectSameFiles(installer, shape: "installer")
                == (common + sboms + ["demo-installer.ps1", "demo-installer.sh"]).sorted())

        let signed = try ReleaseFixture(
            release: "\n[sign]\nssh-key = \"keys/release_ed25519\"\nminisign-key = \"keys/release.key\"\n")
        try signed.repository.commit("chore: keys stay out of git", files: [".gitignore": "out/\ndist/\nkeys/\n"])
        try signed.repository.git("push", "-q", "origin", "main")
        _ = try SigningKeysFixture(in: signed.url.appendingPathComponent("keys"))
        #expect(
            try expectSameFiles(signed, shape: "signing")
                == (common + sboms + ["SHA256SUMS.minisig", "SHA256SUMS.sig"]).sorted())
    }

    /// A project with no `[[target]]` releases a tag (and its notes) only: the plan says so, and
    /// `relctl verify` afterwards says there is nothing to verify instead of failing.
    @Test func aTagOnlyReleaseWritesOnlyItsNotesAndVerifyAcceptsIt() throws {
        let (repository, _) = try Self.tagOnlyProject()
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: repository.url)
        #expect(dry.status == 0, "\(dry)")
        let real = try relctl(["release", "v1.0.0", "--json"], in: repository.url)
        #expect(real.status == 0, "\(real)")
        let predicted = try JSONDecoder().decode(Plan.self, from: Data(dry.stdout.utf8)).distFiles
        let written = try JSONDecoder().decode(Plan.self, from: Data(real.stdout.utf8)).distFiles
        #expect(predicted == written && written == ["RELEASE_NOTES.md"], "\(predicted) \(written)")

        let verify = try relctl(["verify"], in: repository.url)
        #expect(verify.status == 0, "\(verify)")
        #expect(verify.stderr.contains("nothing to verify") && !verify.stderr.contains("relctl checksum"), "\(verify)")
        // A list named explicitly must still exist.
        let named = try relctl(["verify", "dist/SHA256SUMS"], in: repository.url)
        #expect(named.status == 2, "\(named)")
    }
}
