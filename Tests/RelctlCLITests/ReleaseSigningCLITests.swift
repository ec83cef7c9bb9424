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

/// `relctl release` with `[sign]` keys in a git-ignored folder and `[installer] enabled`: the
/// sign and installer stages run (for real in the dry run's scratch clone too, with the keys
/// from the project), and dist/ holds signatures the stock tools accept, SBOMs and installers.
@Suite("relctl release: sign, installer, SBOM stages", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct ReleaseSigningCLITests {
    static let extra = """

        [sign]
        ssh-key = "keys/release_ed25519"
        minisign-key = "keys/release.key"
        allowed-signers = "keys/allowed_signers"
        minisign-public-key = "keys/release.pub"

        [installer]
        enabled = true
        """

    @Test func releaseSignsAndWritesInstallersAndSBOMs() throws {
        let fixture = try ReleaseFixture(release: Self.extra)
        try fixture.repository.commit(
            "chore: keep release keys out of git", files: [".gitignore": "out/\ndist/\nkeys/\n"])
        try fixture.repository.git("push", "-q", "origin", "main")
        let keys = try SigningKeysFixture(in: fixture.url.appendingPathComponent("keys"))

        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        let plan = try JSONDecoder().decode(PlanDocument.self, from: Data(dry.stdout.utf8))
        let statuses = Dictionary(uniqueKeysWithValues: plan.stages.map { ($0.name, $0.status) })
        #expect(statuses["sign"] == "ok" && statuses["installer"] == "ok", "\(plan.stages)")
        #expect(plan.notes?.contains("minisign -Vm SHA256SUMS -P ") == true, "\(plan.notes ?? "")")
        #expect(plan.notes?.contains("sh demo-installer.sh") == true)

        let real = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(real.status == 0, "\(real)")
        let dist = fixture.url.appendingPathComponent("dist")
        let names = try FileManager.default.contentsOfDirectory(atPath: dist.path).sorted()
        for name in [
            "SHA256SUMS.sig", "SHA256SUMS.minisig", "demo-installer.sh", "demo-installer.ps1",
            "demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json", "demo-v1.0.0-aarch64-unknown-linux-gnu.cdx.json",
        ] {
            #expect(names.contains(name), "\(name) missing from \(names)")
        }
        let sums = try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(sums.contains("demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json"), "\(sums)")
        #expect(try run("sha256sum", ["-c", "SHA256SUMS"], in: dist).status == 0)
        let ssh = try sh(
            "ssh-keygen -Y verify -f \"$SIGNERS\" -I \(SigningKeysFixture.principal) -n file -s SHA256SUMS.sig < SHA256SUMS",
            in: dist, environment: ["SIGNERS": keys.allowedSigners.path])
        #expect(ssh.status == 0, "\(ssh)")
        #expect(try run("minisign", ["-Vm", "SHA256SUMS", "-p", keys.minisignPublicKey.path], in: dist).status == 0)
        let verify = try relctl(["verify"], in: fixture.url)
        #expect(
            verify.status == 0 && verify.stderr.contains("good ssh signature")
                && verify.stderr.contains("good minisign signature"), "\(verify)")
        let notes = try String(contentsOf: dist.appendingPathComponent("RELEASE_NOTES.md"), encoding: .utf8)
        #expect(
            notes.contains("ssh-keygen -Y verify -f allowed_signers -I \(SigningKeysFixture.principal)"), "\(notes)")
        #expect(try run("shellcheck", ["-s", "sh", dist.appendingPathComponent("demo-installer.sh").path]).status == 0)
    }

    @Test func aBrokenKeyStopsTheReleaseBeforeTheTag() throws {
        let fixture = try ReleaseFixture(release: "\n[sign]\nminisign-key = \"keys/missing.key\"\n")
        let result = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(
            result.status == 2
                && result.stderr.contains(
                    "keys/missing.key: `[sign] minisign-key` names this file but it cannot be read"),
            "\(result)")
        #expect(try fixture.localTags().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("dist/SHA256SUMS").path))
    }
}
