import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[provenance] enabled`: the release (and its dry run, and `relctl sign` in CI) writes
/// `dist/demo-v1.0.0.intoto.jsonl`, which Python's securesystemslib verifies with the public key
/// alone, and which `relctl verify` checks against the files, the checksum list and the tag.
@Suite("relctl release/sign/verify: provenance", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct ProvenanceCLITests {
    static let extra = """

        [sign]
        ssh-key = "keys/release_ed25519"
        allowed-signers = "keys/allowed_signers"

        [provenance]
        enabled = true
        """

    static let provenanceName = "demo-v1.0.0.intoto.jsonl"

    /// An independent DSSE verifier: securesystemslib with the Ed25519 key from the `.pub` file,
    /// keyid = its `SHA256:` fingerprint; prints the subjects as `HEX  NAME` lines.
    static let pythonVerifier = #"""
        import base64, hashlib, json, struct, sys
        from securesystemslib.dsse import Envelope
        from securesystemslib.signer import SSlibKey
        blob = base64.b64decode(open(sys.argv[2]).read().split()[1])
        (n,) = struct.unpack(">I", blob[:4]); (m,) = struct.unpack(">I", blob[4 + n:8 + n])
        raw = blob[8 + n:8 + n + m]
        keyid = "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
        key = SSlibKey(keyid, "ed25519", "ed25519", {"public": raw.hex()})
        lines = [l for l in open(sys.argv[1]).read().splitlines() if l]
        assert len(lines) == 1, "one envelope per file"
        envelope = Envelope.from_dict(json.loads(lines[0]))
        assert envelope.payload_type == "application/vnd.in-toto+json"
        envelope.verify([key], 1)
        statement = json.loads(envelope.payload)
        assert statement["_type"] == "https://in-toto.io/Statement/v1"
        assert statement["predicateType"] == "https://slsa.dev/provenance/v1"
        for subject in statement["subject"]:
            print(subject["digest"]["sha256"] + "  " + subject["name"])
        print("commit " + statement["predicate"]["buildDefinition"]["resolvedDependencies"][0]["digest"]["gitCommit"])
        """#

    struct KeptPlan: Decodable { var dist: String?; var scratch: String? }

    static func releasedFixture() throws -> (ReleaseFixture, SigningKeysFixture) {
        let fixture = try ReleaseFixture(release: Self.extra)
        try fixture.repository.commit(
            "chore: keep release keys out of git", files: [".gitignore": "out/\ndist/\nkeys/\n"])
        try fixture.repository.git("push", "-q", "origin", "main")
        let keys = try SigningKeysFixture(in: fixture.url.appendingPathComponent("keys"))
        return (fixture, keys)
    }

    @Test func releaseWritesProvenanceThatSecuresystemslibVerifies() throws {
        let (fixture, keys) = try Self.releasedFixture()
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--keep", "--json"], in: fixture.url)
        #expect(dry.status == 0, "\(dry)")
        let kept = try JSONDecoder().decode(KeptPlan.self, from: Data(dry.stdout.utf8))
        defer { if let scratch = kept.scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        let dryProvenance = try Data(
            contentsOf: URL(fileURLWithPath: try #require(kept.dist)).appendingPathComponent(Self.provenanceName))

        let real = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(real.status == 0, "\(real)")
        let dist = fixture.url.appendingPathComponent("dist")
        let provenance = dist.appendingPathComponent(Self.provenanceName)
        let written = try Data(contentsOf: provenance)
        // The dry run predicts the real run's provenance byte for byte (times are the commit's).
        #expect(written == dryProvenance)
        let sums = try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(!sums.contains(".intoto.jsonl"), "\(sums)")

        let python = try run(
            "python3", ["-c", Self.pythonVerifier, provenance.path, keys.sshKey.path + ".pub"], in: dist)
        #expect(python.status == 0, "\(python)")
        let commit = try fixture.repository.git("rev-parse", "v1.0.0^{commit}")
        #expect(python.stdout == sums + "commit \(commit)\n", "\(python)")

        let verify = try relctl(["verify"], in: fixture.url)
        #expect(
            verify.status == 0 && verify.stderr.contains("good provenance by \(SigningKeysFixture.principal)"),
            "\(verify)")

        // CI's merge job: `relctl sign` writes the same provenance from manifest.json and git.
        try FileManager.default.removeItem(at: provenance)
        let sign = try relctl(["sign", "--json"], in: fixture.url)
        #expect(sign.status == 0 && sign.stdout.contains(#""provenance" : "dist/demo-v1.0.0.intoto.jsonl""#), "\(sign)")
        #expect(try Data(contentsOf: provenance) == written)
    }

    @Test func verifyNamesWhatDiffers() throws {
        let (fixture, _) = try Self.releasedFixture()
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        let dist = fixture.url.appendingPathComponent("dist")
        let sumsURL = dist.appendingPathComponent("SHA256SUMS")
        let provenance = dist.appendingPathComponent(Self.provenanceName)
        let sums = try Data(contentsOf: sumsURL)
        let firstName = String(String(decoding: sums, as: UTF8.self).split(separator: "\n")[0].dropFirst(66))

        // One byte of a digest in SHA256SUMS: the subject that no longer matches is named.
        try flipOneByte(sumsURL, at: 5)
        let changedSums = try relctl(["verify"], in: fixture.url)
        #expect(changedSums.status == 1, "\(changedSums)")
        #expect(changedSums.stderr.contains("subject \(firstName): sha256 "), "\(changedSums)")
        try sums.write(to: sumsURL)

        // One byte of the envelope: the signature no longer verifies, and the file is named.
        let original = try Data(contentsOf: provenance)
        for offset in [original.count / 3, original.count / 2, original.count - 20] {
            try flipOneByte(provenance, at: offset)
            let changed = try relctl(["verify"], in: fixture.url)
            #expect(changed.status == 1 && changed.stderr.contains("dist/\(Self.provenanceName): "), "\(changed)")
            try original.write(to: provenance)
        }
        #expect(try relctl(["verify"], in: fixture.url).status == 0)

        // The tag moved to another commit: the recorded commit is not the tag's.
        let released = try fixture.repository.git("rev-parse", "v1.0.0^{commit}")
        let other = try fixture.repository.git("rev-parse", "HEAD~1")
        try fixture.repository.git("tag", "-f", "v1.0.0", "HEAD~1")
        let moved = try relctl(["verify"], in: fixture.url)
        #expect(moved.status == 1, "\(moved)")
        #expect(moved.stderr.contains("records commit \(released), but tag v1.0.0 points at \(other)"), "\(moved)")
    }

    @Test func provenanceWithoutAnSSHKeyStopsTheReleaseBeforeTheTag() throws {
        let fixture = try ReleaseFixture(release: "\n[provenance]\nenabled = true\n")
        let result = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(
            result.status == 2 && result.stderr.contains("[provenance] enabled needs an SSH Ed25519 key"), "\(result)")
        #expect(try fixture.localTags().isEmpty)
    }
}
