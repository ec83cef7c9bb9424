import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// rpm header signatures: an OpenSSH Ed25519 key signs the rpm as an OpenPGP EdDSA key; the
/// exported public key is imported by rpm into a temporary database (and by gpg), and rpm 4.18's
/// own check, `rpm -K`, and rpmlint judge the result. Serialized: rpmlint takes seconds of CPU.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct RpmSigningCLITests {
    /// A project whose rpm table signs with a key made by `ssh-keygen -t ed25519`.
    func signedFixture(_ keys: TemporaryDirectory) throws -> LinuxPackageFixture {
        let key = keys.url.appendingPathComponent("rpm_ed25519")
        let made = try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "rpm", "-f", key.path])
        try #require(made.status == 0, "\(made)")
        let fixture = try LinuxPackageFixture(
            packages: "[[package]]\nformat = \"rpm\"\nsigning-key = \"\(key.path)\"\n", binary: .dynamic)
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
        return fixture
    }

    /// An rpm database of its own, with `key` imported, and a HOME whose ~/.rpmmacros points
    /// rpm (and so rpmlint, which runs `rpm -Kv`) at it.
    func keyring(importing key: URL?) throws -> (home: TemporaryDirectory, database: URL) {
        let home = try TemporaryDirectory(prefix: "relctl-rpmdb")
        let database = home.url.appendingPathComponent("rpmdb")
        _ = try home.write(".rpmmacros", "%_dbpath \(database.path)\n")
        let created = try run("rpm", ["--initdb"], environment: ["HOME": home.path])
        #expect(created.status == 0, "\(created)")
        if let key {
            let imported = try run("rpm", ["--import", key.path], environment: ["HOME": home.path])
            #expect(imported.status == 0, "\(imported)")
        }
        return (home, database)
    }

    @Test func aSignedRpmVerifiesWithTheExportedKeyAndPassesRpmlint() throws {
        let keys = try TemporaryDirectory(prefix: "relctl-rpm-keys")
        let fixture = try signedFixture(keys)
        let packaged = try relctl(
            ["linux-package", "--tag", "v1.0.0", "--format", "rpm", "--target", "x86_64-*"], in: fixture.url)
        #expect(packaged.status == 0, "\(packaged)")
        let rpm = fixture.dist.appendingPathComponent(LinuxPackageFixture.rpm)
        let publicKey = fixture.url.appendingPathComponent("RPM-GPG-KEY-hello")
        let exported = try relctl(["linux-package", "--export-key", publicKey.path], in: fixture.url)
        #expect(exported.status == 0, "\(exported)")
        let text = try String(contentsOf: publicKey, encoding: .utf8)
        #expect(text.hasPrefix("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n"), "\(text)")

        // Without the key rpm sees the signature but cannot check it: NOKEY, exit 1.
        let (emptyHome, _) = try keyring(importing: nil)
        let unknown = try run("rpm", ["-Kv", rpm.path], environment: ["HOME": emptyHome.path])
        #expect(
            unknown.status == 1 && unknown.stdout.contains("Signature, key ID") && unknown.stdout.contains("NOKEY"),
            "\(unknown)")

        let (home, database) = try keyring(importing: publicKey)
        let installed = try run("rpm", ["-q", "gpg-pubkey", "--qf", "%{SUMMARY}\n"], environment: ["HOME": home.path])
        #expect(installed.stdout == "Test User <test@example.com> public key\n", "\(installed)")
        let checked = try run("rpm", ["--dbpath", database.path, "-Kv", rpm.path])
        #expect(checked.status == 0, "\(checked)")
        #expect(checked.stdout.contains("Header V4 EdDSA/SHA256 Signature, key ID "), "\(checked.stdout)")
        #expect(checked.stdout.contains(": OK"), "\(checked.stdout)")
        #expect(!checked.stdout.contains("NOKEY") && !checked.stdout.contains("BAD"), "\(checked.stdout)")

        // rpmlint's signature check runs `rpm -Kv` against the database the key is in: no errors.
        let lint = try run("rpmlint", [rpm.path], environment: ["HOME": home.path])
        let errors = lint.stdout.split(whereSeparator: \.isNewline).filter { $0.contains(": E: ") }
        #expect(errors.isEmpty, "\(lint)")
        #expect(lint.stdout.contains(" 0 errors"), "\(lint)")

        // gpg reads the same key, with a valid self-certification.
        let gnupg = try TemporaryDirectory(prefix: "relctl-gnupg")
        let gpg = try run("gpg", ["--homedir", gnupg.path, "--batch", "--import", publicKey.path])
        #expect(gpg.status == 0, "\(gpg)")
        let sigs = try run("gpg", ["--homedir", gnupg.path, "--batch", "--check-sigs", "--with-colons"])
        #expect(sigs.stdout.contains("\nsig:!:"), "\(sigs)")
        #expect(sigs.stdout.contains("pub:-:255:22:"), "\(sigs)")

        // One byte of the header changed: the signature (checked alone) is BAD.
        var bytes = try Data(contentsOf: rpm)
        let summary = try #require(bytes.range(of: Data("Says hello from a release".utf8)))
        bytes[summary.lowerBound] ^= 0x20
        let tampered = fixture.url.appendingPathComponent("tampered.rpm")
        try bytes.write(to: tampered)
        let bad = try run("rpm", ["--dbpath", database.path, "-Kv", "--nodigest", tampered.path])
        #expect(bad.status != 0 && bad.stdout.contains("Signature, key ID") && bad.stdout.contains("BAD"), "\(bad)")

        // Byte-identical again: the same rpm and the same exported key.
        let again = fixture.url.appendingPathComponent("again")
        let second = try relctl(
            ["linux-package", "--tag", "v1.0.0", "--format", "rpm", "--target", "x86_64-*", "--out", again.path],
            in: fixture.url)
        #expect(second.status == 0, "\(second)")
        #expect(try Data(contentsOf: again.appendingPathComponent(LinuxPackageFixture.rpm)) == Data(contentsOf: rpm))
        let publicAgain = fixture.url.appendingPathComponent("again.asc")
        #expect(try relctl(["linux-package", "--export-key", publicAgain.path], in: fixture.url).status == 0)
        #expect(try String(contentsOf: publicAgain, encoding: .utf8) == text)
    }

    @Test func theEnvironmentKeyWinsAndADebTableRefusesAKey() throws {
        let keys = try TemporaryDirectory(prefix: "relctl-rpm-keys")
        let fixture = try signedFixture(keys)
        let other = keys.url.appendingPathComponent("other")
        #expect(try run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", other.path]).status == 0)
        let fromFile = fixture.url.appendingPathComponent("file.asc")
        let fromEnvironment = fixture.url.appendingPathComponent("env.asc")
        #expect(try relctl(["linux-package", "--export-key", fromFile.path], in: fixture.url).status == 0)
        let exported = try relctl(
            ["linux-package", "--export-key", fromEnvironment.path], in: fixture.url,
            environment: ["RELCTL_RPM_SIGNING_KEY": try String(contentsOf: other, encoding: .utf8)])
        #expect(exported.status == 0, "\(exported)")
        #expect(try Data(contentsOf: fromFile) != Data(contentsOf: fromEnvironment))

        // CI: the generated workflow hands the Linux packages step the key from the secret.
        let generated = try relctl(["ci", "generate"], in: fixture.url)
        #expect(generated.status == 0, "\(generated)")
        let workflow = try fixture.repository.directory.read(".github/workflows/release.yml")
        #expect(
            workflow.contains(
                """
                        env:
                          RELCTL_RPM_SIGNING_KEY: ${{ secrets.RELCTL_RPM_SIGNING_KEY }}
                        run: relctl linux-package --tag "$TAG" --target "$TARGET"
                """), "\(workflow)")
        let linted = try run("actionlint", [fixture.url.appendingPathComponent(".github/workflows/release.yml").path])
        #expect(linted.status == 0, "\(linted)")

        // Unsigned stays the default: no key, no export, and the message says how to add one.
        let unsigned = try LinuxPackageFixture()
        let none = try relctl(["linux-package", "--export-key", "k.asc"], in: unsigned.url)
        #expect(none.status == 2 && none.stderr.contains("signing-key"), "\(none)")

        // A deb has no signature of its own: the key is refused there, naming the table's key.
        let deb = try LinuxPackageFixture(
            packages: "[[package]]\nformat = \"deb\"\nsigning-key = \"\(other.path)\"\n")
        let checked = try relctl(["check"], in: deb.url)
        #expect(checked.status == 2 && checked.stderr.contains("signing-key"), "\(checked)")
    }
}
