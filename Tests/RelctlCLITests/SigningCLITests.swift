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

/// `relctl sign` and the signature half of `relctl verify`, checked against the stock tools:
/// what relctl signs, `ssh-keygen -Y verify` and `minisign -V` accept (and reject after a
/// one-byte change); what they sign, relctl's verify accepts.
/// Serialized: each test blocks a thread for seconds (key generation, scrypt, servers), and
/// several at once would starve the cooperative pool the async tests of the suite need.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct SigningCLITests {
    /// A release in dist/ and stock-tool keys in keys/ (a folder a project would git-ignore).
    func project(extraConfig: String = "", encrypted: Bool = false) throws -> (PackagingFixture, SigningKeysFixture) {
        let fixture = try PackagingFixture(extraConfig: extraConfig)
        let keys = try SigningKeysFixture(in: fixture.url.appendingPathComponent("keys"), encrypted: encrypted)
        try makeRelease(fixture, targets: [PackagingFixture.linuxGNU, PackagingFixture.windows])
        return (fixture, keys)
    }

    static let signConfig = """

        [sign]
        ssh-key = "keys/release_ed25519"
        minisign-key = "keys/release.key"

        """

    func sshKeygenVerify(_ fixture: PackagingFixture, _ keys: SigningKeysFixture) throws -> RunResult {
        try sh(
            "ssh-keygen -Y verify -f \"$SIGNERS\" -I \(SigningKeysFixture.principal) -n file -s dist/SHA256SUMS.sig < dist/SHA256SUMS",
            in: fixture.url, environment: ["SIGNERS": keys.allowedSigners.path])
    }

    /// ssh-keygen refused the signature: exit 255 with its "Could not verify signature." (a
    /// missing ssh-keygen throws in `run`; an exit status alone would not tell the two apart).
    static func sshKeygenRefused(_ result: RunResult) -> Bool {
        result.status == 255 && result.stdout.contains("Could not verify signature.")
    }

    /// minisign refused the signature: exit 1 with "Signature verification failed".
    static func minisignRefused(_ result: RunResult) -> Bool {
        result.status == 1 && result.stderr.contains("Signature verification failed")
    }

    @Test func stockToolsAcceptWhatRelctlSignsAndRejectAOneByteChange() throws {
        let (fixture, keys) = try project(extraConfig: Self.signConfig)
        let signed = try relctl(["sign", "--json"], in: fixture.url)
        #expect(signed.status == 0, "\(signed)")
        #expect(
            signed.stderr.contains("signed dist/SHA256SUMS: dist/SHA256SUMS.sig")
                && signed.stderr.contains("dist/SHA256SUMS.minisig"), "\(signed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(signed.stdout.utf8)) as? [String: Any])
        #expect((report["signatures"] as? [String]) == ["dist/SHA256SUMS.sig", "dist/SHA256SUMS.minisig"])

        // The armor is ssh-keygen's: 70 columns.
        let armor = try fixture.directory.read("dist/SHA256SUMS.sig").split(separator: "\n")
        #expect(armor.first == "-----BEGIN SSH SIGNATURE-----" && armor.last == "-----END SSH SIGNATURE-----")
        #expect(armor.dropFirst().dropLast().dropLast().allSatisfy { $0.count == 70 })

        let ssh = try sshKeygenVerify(fixture, keys)
        #expect(
            ssh.status == 0 && ssh.stdout.contains("Good \"file\" signature for \(SigningKeysFixture.principal)"),
            "\(ssh)")
        let mini = try run("minisign", ["-Vm", "dist/SHA256SUMS", "-p", keys.minisignPublicKey.path], in: fixture.url)
        #expect(
            mini.status == 0 && mini.stdout.contains("Trusted comment: file:SHA256SUMS project:velostream tag:v1.0.0"),
            "\(mini)")
        let ours = try relctl(
            ["verify", "--allowed-signers", "keys/allowed_signers", "--minisign-key", "keys/release.pub"],
            in: fixture.url)
        #expect(ours.status == 0, "\(ours)")
        #expect(
            ours.stderr.contains("dist/SHA256SUMS.sig: good ssh signature by \(SigningKeysFixture.principal)"),
            "\(ours.stderr)")
        #expect(ours.stderr.contains("dist/SHA256SUMS.minisig: good minisign signature"), "\(ours.stderr)")

        // One byte of the signed list changes: a digest's hex digit, so the list still parses.
        let sums = fixture.dist.appendingPathComponent("SHA256SUMS")
        var text = try String(contentsOf: sums, encoding: .utf8)
        let first = text.startIndex
        text.replaceSubrange(first...first, with: text[first] == "0" ? "1" : "0")
        try text.write(to: sums, atomically: true, encoding: .utf8)
        let sshChanged = try sshKeygenVerify(fixture, keys)
        #expect(Self.sshKeygenRefused(sshChanged), "\(sshChanged)")
        let miniChanged = try run(
            "minisign", ["-Vm", "dist/SHA256SUMS", "-p", keys.minisignPublicKey.path], in: fixture.url)
        #expect(Self.minisignRefused(miniChanged), "\(miniChanged)")
        let tampered = try relctl(
            ["verify", "--allowed-signers", "keys/allowed_signers", "--minisign-key", "keys/release.pub"],
            in: fixture.url)
        #expect(tampered.status == 1, "\(tampered)")
        #expect(tampered.stderr.contains("dist/SHA256SUMS.sig: signature verification failed"), "\(tampered.stderr)")
        #expect(
            tampered.stderr.contains("dist/SHA256SUMS.minisig: signature verification failed"), "\(tampered.stderr)")
    }

    @Test func aOneByteChangeInTheSignaturesIsRejectedByAllThree() throws {
        let (fixture, keys) = try project(extraConfig: Self.signConfig)
        #expect(try relctl(["sign"], in: fixture.url).status == 0)
        // Inside the base64 of the Ed25519 signatures (the end of the SSH armor, the minisign signature line).
        let sig = fixture.dist.appendingPathComponent("SHA256SUMS.sig")
        let armor = try Data(contentsOf: sig)
        try flipOneByte(sig, at: armor.count - "-----END SSH SIGNATURE-----\n".count - 10)
        let minisig = fixture.dist.appendingPathComponent("SHA256SUMS.minisig")
        let lines = try String(contentsOf: minisig, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try flipOneByte(minisig, at: lines[0].utf8.count + 1 + 40)
        let sshChanged = try sshKeygenVerify(fixture, keys)
        #expect(Self.sshKeygenRefused(sshChanged), "\(sshChanged)")
        let miniChanged = try run(
            "minisign", ["-Vm", "dist/SHA256SUMS", "-p", keys.minisignPublicKey.path], in: fixture.url)
        #expect(Self.minisignRefused(miniChanged), "\(miniChanged)")
        let verify = try relctl(
            ["verify", "--allowed-signers", "keys/allowed_signers", "--minisign-key", "keys/release.pub", "--json"],
            in: fixture.url)
        #expect(verify.status == 1, "\(verify)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        let statuses = (report["signatures"] as? [[String: Any]])?.map { $0["status"] as? String }
        #expect(statuses == ["bad", "bad"], "\(verify.stdout)")
        // The checksums themselves are fine: only the signatures fail.
        #expect(report["ok"] as? Bool == true)
    }

    @Test func relctlVerifiesWhatTheStockToolsSign() throws {
        let (fixture, keys) = try project()
        let ssh = try run(
            "ssh-keygen", ["-Y", "sign", "-q", "-f", keys.sshKey.path, "-n", "file", "dist/SHA256SUMS"], in: fixture.url
        )
        #expect(ssh.status == 0, "\(ssh)")
        let mini = try run("minisign", ["-S", "-s", keys.minisignKey.path, "-m", "dist/SHA256SUMS"], in: fixture.url)
        #expect(mini.status == 0, "\(mini)")
        let verify = try relctl(
            ["verify", "--allowed-signers", "keys/allowed_signers", "--minisign-key", "keys/release.pub"],
            in: fixture.url)
        #expect(verify.status == 0, "\(verify)")
        #expect(
            verify.stderr.contains("good ssh signature") && verify.stderr.contains("good minisign signature"),
            "\(verify.stderr)")

        // Signed by a key the allowed-signers file does not list: ssh-keygen and relctl both refuse.
        let other = try keys.otherSSHKey()
        try FileManager.default.removeItem(at: fixture.dist.appendingPathComponent("SHA256SUMS.sig"))
        #expect(
            try run(
                "ssh-keygen", ["-Y", "sign", "-q", "-f", other.path, "-n", "file", "dist/SHA256SUMS"], in: fixture.url
            ).status == 0)
        let sshUnknown = try sshKeygenVerify(fixture, keys)
        #expect(Self.sshKeygenRefused(sshUnknown), "\(sshUnknown)")
        let unknown = try relctl(["verify", "--allowed-signers", "keys/allowed_signers"], in: fixture.url)
        #expect(
            unknown.status == 1 && unknown.stderr.contains("signed by a key the allowed-signers file does not list"),
            "\(unknown)")

        // Another namespace: not a release-file signature.
        try FileManager.default.removeItem(at: fixture.dist.appendingPathComponent("SHA256SUMS.sig"))
        #expect(
            try run(
                "ssh-keygen", ["-Y", "sign", "-q", "-f", keys.sshKey.path, "-n", "git", "dist/SHA256SUMS"],
                in: fixture.url
            ).status == 0)
        let git = try relctl(["verify", "--allowed-signers", "keys/allowed_signers"], in: fixture.url)
        #expect(git.status == 1 && git.stderr.contains("namespace `git`"), "\(git)")
    }

    @Test func keysFromTheEnvironmentAndAnEncryptedMinisignKey() throws {
        let (fixture, keys) = try project(encrypted: true)
        let sshText = try String(contentsOf: keys.sshKey, encoding: .utf8)
        let miniText = try String(contentsOf: keys.encryptedMinisignKey, encoding: .utf8)
        let base = ["RELCTL_SSH_KEY": sshText, "RELCTL_MINISIGN_KEY": miniText]

        let noPassword = try relctl(["sign"], in: fixture.url, environment: base)
        #expect(
            noPassword.status == 2
                && noPassword.stderr.contains(
                    "$RELCTL_MINISIGN_KEY: the minisign key is encrypted; put its password in RELCTL_MINISIGN_PASSWORD"),
            "\(noPassword)")
        #expect(!fixture.directory.exists("dist/SHA256SUMS.sig"), "nothing is written when one key fails")
        let wrong = try relctl(
            ["sign"], in: fixture.url, environment: base.merging(["RELCTL_MINISIGN_PASSWORD": "wrong"]) { $1 })
        #expect(wrong.status == 2 && wrong.stderr.contains("wrong password"), "\(wrong)")

        let signed = try relctl(
            ["sign"], in: fixture.url,
            environment: base.merging(["RELCTL_MINISIGN_PASSWORD": SigningKeysFixture.password]) { $1 })
        #expect(signed.status == 0, "\(signed)")
        let mini = try run(
            "minisign", ["-Vm", "dist/SHA256SUMS", "-p", keys.encryptedMinisignPublicKey.path], in: fixture.url)
        #expect(mini.status == 0, "\(mini)")
        #expect(try sshKeygenVerify(fixture, keys).status == 0)
        // The [sign] public keys are used when no flag is given; a wrong one fails.
        try fixture.directory.write(
            "relctl.toml",
            PackagingFixture.config
                + "\n[sign]\nallowed-signers = \"keys/allowed_signers\"\nminisign-public-key = \"keys/release.pub\"\n")
        let mismatch = try relctl(["verify"], in: fixture.url)
        #expect(mismatch.status == 1 && mismatch.stderr.contains("not by the given key"), "\(mismatch)")
        let right = try relctl(["verify", "--minisign-key", "keys/encrypted.pub"], in: fixture.url)
        #expect(right.status == 0, "\(right)")
    }

    @Test func unusableKeysAndMissingSignaturesAreClearErrors() throws {
        let (fixture, keys) = try project()
        let none = try relctl(["sign"], in: fixture.url)
        #expect(none.status == 2 && none.stderr.contains("no signing key"), "\(none)")

        let locked = keys.directory.appendingPathComponent("locked_ed25519")
        #expect(try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "secret", "-f", locked.path]).status == 0)
        try fixture.directory.write(
            "relctl.toml", PackagingFixture.config + "\n[sign]\nssh-key = \"keys/locked_ed25519\"\n")
        let encrypted = try relctl(["sign"], in: fixture.url)
        #expect(
            encrypted.status == 2
                && encrypted.stderr.contains("keys/locked_ed25519: the key is protected by a passphrase"),
            "\(encrypted)")

        try fixture.directory.write(
            "relctl.toml",
            PackagingFixture.config + "\n[sign]\nssh-key = \"keys/absent\"\nminisign-key = \"keys/release.pub\"\n")
        let bad = try relctl(["sign"], in: fixture.url)
        #expect(bad.status == 2, "\(bad)")
        #expect(
            bad.stderr.contains("keys/absent: `[sign] ssh-key` names this file but it cannot be read"), "\(bad.stderr)")
        #expect(bad.stderr.contains("keys/release.pub: not a minisign secret key"), "\(bad.stderr)")

        // A key is given but the release carries no signature: exit 1, like a bad one.
        let missing = try relctl(
            ["verify", "--allowed-signers", "keys/allowed_signers", "--minisign-key", "keys/release.pub"],
            in: fixture.url)
        #expect(missing.status == 1, "\(missing)")
        #expect(
            missing.stderr.contains("dist/SHA256SUMS.sig: missing")
                && missing.stderr.contains("dist/SHA256SUMS.minisig: missing"), "\(missing.stderr)")
        // Without keys, verify checks the checksums only and passes.
        try fixture.directory.write("relctl.toml", PackagingFixture.config)
        #expect(try relctl(["verify"], in: fixture.url).status == 0)
    }
}

/// A name with a line break cannot split the `.minisig` trusted comment (issue 26, item 9).
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct SigningTrustedCommentCLITests {
    @Test func aLineBreakInTheManifestsProjectStillGivesASignatureMinisignVerifies() throws {
        let fixture = try PackagingFixture(extraConfig: SigningCLITests.signConfig)
        let keys = try SigningKeysFixture(in: fixture.url.appendingPathComponent("keys"))
        try makeRelease(fixture, targets: [PackagingFixture.linuxGNU])
        // A manifest.json from elsewhere (an older relctl, a hand edit) naming a project with a line break.
        let manifest = try fixture.directory.read("dist/manifest.json")
        try fixture.directory.write(
            "dist/manifest.json", manifest.replacingOccurrences(of: #""velostream""#, with: #""velo\nstream\r""#))
        let signed = try relctl(["sign"], in: fixture.url)
        #expect(signed.status == 0, "\(signed)")
        let mini = try run("minisign", ["-Vm", "dist/SHA256SUMS", "-p", keys.minisignPublicKey.path], in: fixture.url)
        #expect(mini.status == 0, "\(mini)")
        #expect(mini.stdout.contains(#"project:"velo\nstream\r" tag:v1.0.0"#), "\(mini)")
    }
}
