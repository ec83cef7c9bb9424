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

/// The DSSE envelope and the SLSA statement relctl writes, checked in memory: the encoding the
/// signature covers, determinism, and that every single changed byte of the envelope is found.
@Suite("provenance: DSSE envelope and SLSA statement", .timeLimit(.minutes(30)), .removesTemporaries)
struct ProvenanceTests {
    static let inputs = ProvenanceInputs(
        project: "demo", tag: "v1.0.0", version: "1.0.0", commit: String(repeating: "ab", count: 20),
        sourceDateEpoch: 1_700_000_000, targets: ["x86_64-unknown-linux-gnu"], configPath: "relctl.toml",
        configSHA256: String(repeating: "0", count: 64), repositoryURL: "https://user:secret@example.com/acme/demo.git")

    static let sumsText = """
        \(String(repeating: "1", count: 64))  demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz
        \(String(repeating: "2", count: 64))  demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json

        """

    /// A key made by ssh-keygen, its allowed-signers line, and a signed envelope of `sumsText`.
    struct Signed {
        var key: OpenSSHPrivateKey
        var signers: AllowedSigners
        var envelope: Data
        var sums: ChecksumFile
    }

    static func signed(in directory: TemporaryDirectory, environment: [String: String] = [:]) throws -> Signed {
        let keys = try SigningKeysFixture(in: directory.url.appendingPathComponent("keys"))
        let key = try OpenSSHPrivateKey(text: try String(contentsOf: keys.sshKey, encoding: .utf8), source: "key")
        let signers = try AllowedSigners(
            text: try String(contentsOf: keys.allowedSigners, encoding: .utf8), file: "allowed_signers")
        let sumsURL = try directory.write("dist/SHA256SUMS", sumsText)
        let written = try ProvenanceWriter.write(
            sums: sumsURL, inputs: inputs, key: key, environment: environment)
        #expect(written.lastPathComponent == "demo-v1.0.0.intoto.jsonl")
        return Signed(
            key: key, signers: signers, envelope: try Data(contentsOf: written),
            sums: try ChecksumFile.read(sumsURL))
    }

    @Test func preAuthenticationEncodingIsTheSpecsExample() {
        // github.com/secure-systems-lab/dsse protocol.md: PAE("http://example.com/HelloWorld", "hello world").
        let pae = DSSEEnvelope.preAuthenticationEncoding(
            payloadType: "http://example.com/HelloWorld", payload: Data("hello world".utf8))
        #expect(String(decoding: pae, as: UTF8.self) == "DSSEv1 29 http://example.com/HelloWorld 11 hello world")
    }

    @Test func fingerprintIsWhatSSHKeygenPrints() throws {
        try withTemporaryDirectory { directory in
            let keys = try SigningKeysFixture(in: directory.url)
            let key = try OpenSSHPrivateKey(text: try String(contentsOf: keys.sshKey, encoding: .utf8), source: "key")
            let printed = try run("ssh-keygen", ["-l", "-E", "sha256", "-f", keys.sshKey.path + ".pub"]).stdout
            let fields = printed.split(separator: " ")
            #expect(fields.count > 1 && String(fields[1]) == SSHKeyFingerprint.sha256(ofBlob: key.publicKeyBlob))
        }
    }

    @Test func statementIsDeterministicAndVerifies() throws {
        try withTemporaryDirectory { directory in
            let first = try Self.signed(in: directory)
            let again = try ProvenanceWriter.write(
                sums: directory.url.appendingPathComponent("dist/SHA256SUMS"), inputs: Self.inputs, key: first.key,
                environment: [:])
            #expect(try Data(contentsOf: again) == first.envelope)
            let check = ProvenanceVerifier.check(
                envelope: first.envelope, file: "p", sums: first.sums, sumsName: "SHA256SUMS",
                signers: first.signers, signersFile: "allowed_signers")
            #expect(check.findings.isEmpty, "\(check.findings)")
            #expect(check.signer == SigningKeysFixture.principal && check.subjects == 2)
            let envelope = try JSONDecoder().decode(DSSEEnvelope.self, from: first.envelope)
            let payload = try #require(envelope.payloadBytes)
            let text = String(decoding: payload, as: UTF8.self)
            // No credential of the remote URL reaches the published file; times are the epoch.
            #expect(!text.contains("secret") && text.contains("git+https://example.com/acme/demo.git@refs/tags/v1.0.0"))
            #expect(text.contains(#""startedOn":"2023-11-14T22:13:20Z""#), "\(text)")
        }
    }

    @Test func githubActionsRunIsTheBuilder() throws {
        try withTemporaryDirectory { directory in
            let signed = try Self.signed(
                in: directory,
                environment: [
                    "GITHUB_ACTIONS": "true", "GITHUB_SERVER_URL": "https://github.com",
                    "GITHUB_REPOSITORY": "acme/demo", "GITHUB_RUN_ID": "42", "GITHUB_RUN_ATTEMPT": "2",
                    "GITHUB_WORKFLOW_REF": "acme/demo/.github/workflows/release.yml@refs/tags/v1.0.0",
                ])
            let envelope = try JSONDecoder().decode(DSSEEnvelope.self, from: signed.envelope)
            let statement = try JSONDecoder().decode(
                ProvenanceStatement.self, from: try #require(envelope.payloadBytes))
            let run = statement.predicate.runDetails
            #expect(run.builder.id == "https://github.com/acme/demo/.github/workflows/release.yml@refs/tags/v1.0.0")
            #expect(run.metadata.invocationId == "https://github.com/acme/demo/actions/runs/42/attempts/2")
            #expect(
                statement.predicate.buildDefinition.resolvedDependencies.first?.uri
                    == "git+https://github.com/acme/demo@refs/tags/v1.0.0")
        }
    }

    /// Every byte of the envelope file, changed one at a time, makes the check fail.
    @Test func everyChangedByteIsFound() throws {
        try withTemporaryDirectory { directory in
            let signed = try Self.signed(in: directory)
            var missed: [Int] = []
            for index in signed.envelope.indices {
                var changed = signed.envelope
                changed[index] = changed[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
                let check = ProvenanceVerifier.check(
                    envelope: changed, file: "p", sums: signed.sums, sumsName: "SHA256SUMS", signers: signed.signers,
                    signersFile: "allowed_signers")
                if check.findings.isEmpty { missed.append(index) }
            }
            #expect(missed.isEmpty, "changes at bytes \(missed) went unnoticed")
        }
    }

    /// A base64 character whose unused low bits are set decodes to the same bytes: the change
    /// must still be found (the random key makes `everyChangedByteIsFound` meet this only sometimes).
    @Test func nonCanonicalBase64IsADifference() throws {
        try withTemporaryDirectory { directory in
            let signed = try Self.signed(in: directory)
            var envelope = try JSONDecoder().decode(DSSEEnvelope.self, from: signed.envelope)
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
            let original = envelope.signatures[0].sig
            var sig = Array(original)
            // 64 bytes: 86 characters, "==", and the last character carries 4 unused bits.
            let last = try #require(alphabet.firstIndex(of: sig[85]))
            sig[85] = alphabet[last | 1]
            envelope.signatures[0].sig = String(sig)
            // Foundation decodes it to the very same signature bytes, so the signature still verifies.
            #expect(Data(base64Encoded: envelope.signatures[0].sig) == Data(base64Encoded: original))
            let check = ProvenanceVerifier.check(
                envelope: Data(try envelope.jsonLine().utf8), file: "p", sums: signed.sums, sumsName: "SHA256SUMS",
                signers: signed.signers, signersFile: "allowed_signers")
            #expect(
                check.findings == ["the signature of keyid \(envelope.signatures[0].keyid) is not canonical base64"])
        }
    }

    @Test func subjectsAreComparedWithTheChecksumFileByName() throws {
        try withTemporaryDirectory { directory in
            let signed = try Self.signed(in: directory)
            var sums = signed.sums
            sums.entries[0].digest = String(repeating: "3", count: 64)
            sums.entries.append(
                ChecksumFile.Entry(name: "extra.zip", digest: String(repeating: "4", count: 64), algorithm: .sha256))
            let check = ProvenanceVerifier.check(
                envelope: signed.envelope, file: "p", sums: sums, sumsName: "SHA256SUMS", signers: signed.signers,
                signersFile: "allowed_signers")
            #expect(check.signer != nil)
            #expect(check.findings.count == 2, "\(check.findings)")
            #expect(
                check.findings.contains {
                    $0.hasPrefix("subject demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz: sha256 1111")
                })
            #expect(check.findings.contains { $0.hasPrefix("extra.zip: listed in SHA256SUMS, not a subject") })
        }
    }

    @Test func anotherKeyIsRefused() throws {
        try withTemporaryDirectory { directory in
            let signed = try Self.signed(in: directory)
            let other = try SigningKeysFixture(in: directory.url.appendingPathComponent("other"))
            let signers = try AllowedSigners(
                text: try String(contentsOf: other.allowedSigners, encoding: .utf8), file: "other_signers")
            let check = ProvenanceVerifier.check(
                envelope: signed.envelope, file: "p", sums: signed.sums, sumsName: "SHA256SUMS", signers: signers,
                signersFile: "other_signers")
            #expect(check.signer == nil && check.findings.count == 1, "\(check.findings)")
            #expect(check.findings.first?.contains("no signature verifies with a key of other_signers") == true)
        }
    }
}
