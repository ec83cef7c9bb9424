import Crypto
import Foundation
import RelctlBasics

/// A minisign secret key (`minisign -G`'s `.key`), decrypted when it was saved with a password.
///
/// Layout: "Ed", KDF id ("Sc" scrypt, or two zero bytes for `-W`), "B2", a 32-byte salt, the
/// scrypt opslimit and memlimit (little-endian 64-bit), then 104 bytes, XORed with the scrypt
/// stream when encrypted: key id (8), Ed25519 secret key (64), BLAKE2b-256 checksum (32).
package struct MinisignSecretKey: Sendable {
    package var keyID: [UInt8]
    /// libsodium's 64-byte form: seed + public key.
    package var secretKey: [UInt8]

    package var publicKey: MinisignPublicKey { MinisignPublicKey(keyID: keyID, key: Array(secretKey[32...])) }

    /// - Parameter password: required for an encrypted key; ignored for an unencrypted one.
    package init(text: String, source: String, password: String?, passwordVariable: String) throws {
        func bad(_ reason: String) -> SigningError { .badKey(source: source, reason: reason) }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("untrusted comment:") }
        guard let line = lines.first, let data = Data(base64Encoded: line), data.count == 158 else {
            throw bad("not a minisign secret key (expected the base64 line `minisign -G` writes to the .key file)")
        }
        let bytes = Array(data)
        guard Array(bytes[0..<2]) == Array("Ed".utf8), Array(bytes[4..<6]) == Array("B2".utf8) else {
            throw bad("unsupported minisign secret key (signature algorithm or checksum is not Ed/BLAKE2b)")
        }
        let kdf = Array(bytes[2..<4])
        let salt = Array(bytes[6..<38])
        let opsLimit = Self.littleEndian(bytes[38..<46])
        let memLimit = Self.littleEndian(bytes[46..<54])
        var sealed = Array(bytes[54..<158])
        if kdf == Array("Sc".utf8) {
            guard let password, !password.isEmpty else {
                throw SigningError.password(
                    source: source, reason: "the minisign key is encrypted; put its password in \(passwordVariable)")
            }
            guard memLimit <= 1 << 32,
                var stream = Sodium.scrypt(
                    password: Array(password.utf8), salt: salt, opsLimit: opsLimit, memLimit: memLimit,
                    count: sealed.count)
            else {
                throw bad("cannot derive the key's decryption key (scrypt memlimit \(memLimit) refused)")
            }
            for index in sealed.indices { sealed[index] ^= stream[index] }
            Sodium.wipe(&stream)
        } else if kdf != [0, 0] {
            throw bad("unsupported key derivation `\(String(decoding: kdf, as: UTF8.self))` in the minisign secret key")
        }
        keyID = Array(sealed[0..<8])
        secretKey = Array(sealed[8..<72])
        let checksum = Array(sealed[72..<104])
        Sodium.wipe(&sealed)
        // `minisign -G -W` leaves the checksum of an unencrypted key zeroed; then the key pair's
        // own consistency (below) is the only check.
        let unchecked = kdf == [0, 0] && checksum.allSatisfy { $0 == 0 }
        if !unchecked, Sodium.blake2b([Array("Ed".utf8), keyID, secretKey], count: 32) != checksum {
            if kdf == [0, 0] { throw bad("the minisign secret key's checksum does not match (damaged key)") }
            throw SigningError.password(
                source: source,
                reason:
                    "wrong password for the encrypted minisign key (its checksum does not match); check \(passwordVariable)"
            )
        }
        guard let seed = try? Curve25519.Signing.PrivateKey(rawRepresentation: secretKey[0..<32]),
            Array(seed.publicKey.rawRepresentation) == Array(secretKey[32...])
        else {
            throw bad("the minisign secret key does not match its own public half (damaged key)")
        }
    }

    package static func littleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }
}
