import Crypto
import Foundation
import RelctlBasics

/// An Ed25519 private key in OpenSSH's own format (`-----BEGIN OPENSSH PRIVATE KEY-----`,
/// "openssh-key-v1"), as `ssh-keygen -t ed25519` writes it.
///
/// Passphrase-protected keys are refused: OpenSSH derives their key with bcrypt_pbkdf, which
/// neither swift-crypto nor libsodium provide, and a release key for CI is stored unencrypted
/// in a secret anyway. The message says how to make an unencrypted copy.
package struct OpenSSHPrivateKey: Sendable {
    package let privateKey: Curve25519.Signing.PrivateKey
    package let comment: String

    /// The public key as it appears in `authorized_keys` / `allowed_signers`: the wire blob.
    package var publicKeyBlob: [UInt8] { SSHSignature.publicKeyBlob(privateKey.publicKey) }

    /// `ssh-ed25519 AAAA… comment`.
    package var publicKeyLine: String {
        "ssh-ed25519 \(Data(publicKeyBlob).base64EncodedString())\(comment.isEmpty ? "" : " " + comment)"
    }

    package static let magic = Array("openssh-key-v1\u{0}".utf8)

    /// Parses the armored text; `source` names the file or variable for messages.
    package init(text: String, source: String) throws {
        func bad(_ reason: String) -> SigningError { .badKey(source: source, reason: reason) }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(of: "-----BEGIN OPENSSH PRIVATE KEY-----"),
            let end = lines.firstIndex(of: "-----END OPENSSH PRIVATE KEY-----"), begin < end
        else {
            if lines.contains(where: { $0.hasPrefix("-----BEGIN") && $0.contains("PRIVATE KEY") }) {
                throw bad(
                    "not an OpenSSH-format private key (PEM/PKCS#8); relctl signs with Ed25519 keys from `ssh-keygen -t ed25519`"
                )
            }
            throw bad(
                "not an OpenSSH private key (no `-----BEGIN OPENSSH PRIVATE KEY-----` line); create one with `ssh-keygen -t ed25519 -N '' -f KEYFILE`"
            )
        }
        guard let data = Data(base64Encoded: lines[(begin + 1)..<end].joined()) else {
            throw bad("the OpenSSH private key's base64 body is damaged")
        }
        var reader = SSHWireReader(Array(data))
        do {
            guard try reader.raw(Self.magic.count) == Self.magic else { throw bad("not an openssh-key-v1 private key") }
            let cipher = try reader.text()
            let kdf = try reader.text()
            _ = try reader.string()
            guard cipher == "none", kdf == "none" else {
                throw bad(
                    "the key is protected by a passphrase (\(cipher), \(kdf)), which relctl does not decrypt; sign with an unencrypted copy kept in a secret: `cp KEY COPY && ssh-keygen -p -N '' -f COPY`"
                )
            }
            guard try reader.uint32() == 1 else {
                throw bad("holds more than one key; relctl expects exactly one Ed25519 key")
            }
            _ = try reader.string()
            var section = SSHWireReader(try reader.string())
            guard try section.uint32() == (try section.uint32()) else {
                throw bad("the private section's check numbers differ (damaged key)")
            }
            let type = try section.text()
            guard type == "ssh-ed25519" else {
                throw bad("is a `\(type)` key; relctl signs with Ed25519 only (`ssh-keygen -t ed25519`)")
            }
            let publicKey = try section.string()
            let secret = try section.string()
            comment = try section.text()
            guard publicKey.count == 32, secret.count == 64, Array(secret[32...]) == publicKey else {
                throw bad("the Ed25519 key material has the wrong size or does not match its public key (damaged key)")
            }
            privateKey = try Curve25519.Signing.PrivateKey(rawRepresentation: secret[0..<32])
            guard Array(privateKey.publicKey.rawRepresentation) == publicKey else {
                throw bad("the private key does not produce its stored public key (damaged key)")
            }
        } catch is SSHWireReader.Truncated {
            throw bad("the OpenSSH private key is truncated")
        }
    }
}
