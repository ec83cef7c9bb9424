import Foundation

/// OpenPGP keys made by gpg itself in an isolated GNUPGHOME (no agent prompt: empty passphrase,
/// loopback pinentry), exported the way users export theirs, for the repository tests.
public struct GPGKey: Sendable {
    public let home: TemporaryDirectory
    /// `gpg --export-secret-keys --armor`.
    public let secretArmored: String
    /// `gpg --export` (binary): the keyring apt's `signed-by` and gpgv read.
    public let keyring: URL
    public let fingerprint: String

    /// - Parameter algorithm: gpg's name for the primary key's algorithm (`ed25519`, `rsa3072`).
    public init(algorithm: String = "ed25519", userID: String = "Repo Test <repo@example.com>") throws {
        home = try TemporaryDirectory(prefix: "relctl-gnupg")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: home.path)
        let environment = ["GNUPGHOME": home.path]
        let made = try run(
            "gpg",
            [
                "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key", userID, algorithm,
                "sign", "never",
            ],
            environment: environment)
        guard made.status == 0 else { throw TestFailure("gpg --quick-gen-key failed: \(made)") }
        let secret = try run(
            "gpg", ["--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--export-secret-keys", "--armor"],
            environment: environment)
        guard secret.status == 0 else { throw TestFailure("gpg --export-secret-keys failed: \(secret)") }
        secretArmored = secret.stdout
        keyring = home.url.appendingPathComponent("exported.gpg")
        let exported = try run("gpg", ["--batch", "--output", keyring.path, "--export"], environment: environment)
        guard exported.status == 0 else { throw TestFailure("gpg --export failed: \(exported)") }
        let listing = try run("gpg", ["--batch", "--with-colons", "--list-keys"], environment: environment)
        fingerprint =
            listing.stdout.split(separator: "\n").first { $0.hasPrefix("fpr:") }.map {
                String($0.split(separator: ":", omittingEmptySubsequences: false)[9])
            } ?? ""
    }
}
