import Crypto
import Foundation
import RelctlBasics

/// An Ed25519 key as an OpenPGP v4 EdDSA key (RFC 4880 with the Ed25519 curve of RFC 4880bis),
/// made from the seed of an OpenSSH Ed25519 key: the armored public key users `rpm --import`
/// (primary key, user ID, positive self-certification) and binary-document signatures, which rpm
/// keeps in the signature header of a package.
///
/// Everything is deterministic: the key's creation time is fixed (0, 1970-01-01) so one private
/// key always gives one fingerprint, signatures carry the time they are given, and Ed25519
/// signatures (libsodium, RFC 8032) have no random part.
package struct OpenPGPSigningKey: Sendable {
    /// The Ed25519 curve's OID, 1.3.6.1.4.1.11591.15.1, as RFC 4880bis 9.2 encodes it.
    package static let ed25519OID: [UInt8] = [0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01]
    /// Public-key algorithm 22, EdDSA.
    package static let eddsa: UInt8 = 22
    /// Hash algorithm 8, SHA-256.
    package static let sha256: UInt8 = 8

    private let seed: [UInt8]
    package let publicKey: [UInt8]
    /// `Name <email>`: the user ID of the exported key.
    package let userID: String
    package let created: UInt32

    package init(_ key: OpenSSHPrivateKey, userID: String, created: UInt32 = 0) {
        seed = Array(key.privateKey.rawRepresentation)
        publicKey = Array(key.privateKey.publicKey.rawRepresentation)
        self.userID = userID
        self.created = created
    }

    /// The public-key packet's body (RFC 4880 5.5.2): version 4, creation time, EdDSA, the curve,
    /// and the point as an MPI in the native 0x40-prefixed form.
    package var publicKeyBody: [UInt8] {
        [4] + OpenPGPPacket.bigEndian(created) + [Self.eddsa, UInt8(Self.ed25519OID.count)] + Self.ed25519OID
            + OpenPGPPacket.mpi([0x40] + publicKey)
    }

    /// The v4 fingerprint (RFC 4880 12.2): SHA-1 of 0x99, the body's length, the body.
    package var fingerprint: [UInt8] {
        let body = publicKeyBody
        return Array(Insecure.SHA1.hash(data: [0x99, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body))
    }

    /// The low 64 bits of the fingerprint, as rpm and gpg print it.
    package var keyIDText: String { fingerprint.suffix(8).map { String(format: "%02x", $0) }.joined() }

    /// The transferable public key, armored: what `rpm --import` and `gpg --import` read.
    package var armoredPublicKey: String {
        let body = publicKeyBody
        let uid = Array(userID.utf8)
        // The certification hashes the key and the user ID (RFC 4880 5.2.4).
        let signed =
            [0x99, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body + [0xB4]
            + OpenPGPPacket.bigEndian(UInt32(uid.count)) + uid
        // Key flags 0x03: certify and sign.
        let certification = signature(
            type: 0x13, over: signed, time: created, extra: [OpenPGPPacket.subpacket(27, [0x03])])
        let packets =
            OpenPGPPacket.packet(tag: OpenPGPPacket.publicKeyTag, body: body)
            + OpenPGPPacket.packet(tag: OpenPGPPacket.userIDTag, body: uid) + certification
        return OpenPGPPacket.armored(packets, kind: "PUBLIC KEY BLOCK")
    }

    /// A binary-document signature packet (type 0x00) over `data`, made at `time`.
    package func signature(over data: [UInt8], time: UInt32) -> [UInt8] {
        signature(type: 0x00, over: data, time: time, extra: [])
    }

    /// A v4 signature packet (RFC 4880 5.2.3): the creation time and the issuer's fingerprint
    /// hashed, the issuer key ID unhashed (older readers, rpm 4.18's included, look only for it),
    /// SHA-256 over the data, the hashed part and the trailer, and the Ed25519 signature of that
    /// digest as the MPIs R and S.
    private func signature(type: UInt8, over data: [UInt8], time: UInt32, extra: [[UInt8]]) -> [UInt8] {
        let hashedSubpackets =
            OpenPGPPacket.subpacket(2, OpenPGPPacket.bigEndian(time))
            + extra.joined() + OpenPGPPacket.subpacket(33, [4] + fingerprint)
        let hashed =
            [
                4, type, Self.eddsa, Self.sha256, UInt8(hashedSubpackets.count >> 8),
                UInt8(hashedSubpackets.count & 0xFF),
            ]
            + hashedSubpackets
        var hash = SHA256()
        hash.update(data: data)
        hash.update(data: hashed)
        hash.update(data: [4, 0xFF] + OpenPGPPacket.bigEndian(UInt32(hashed.count)))
        let digest = Array(hash.finalize())
        var secretKey = seed + publicKey
        defer { Sodium.wipe(&secretKey) }
        let signature = Sodium.sign(digest, secretKey: secretKey)
        let unhashed = OpenPGPPacket.subpacket(16, Array(fingerprint.suffix(8)))
        let body =
            hashed + [UInt8(unhashed.count >> 8), UInt8(unhashed.count & 0xFF)] + unhashed
            + digest.prefix(2) + OpenPGPPacket.mpi(Array(signature[0..<32]))
            + OpenPGPPacket.mpi(Array(signature[32..<64]))
        return OpenPGPPacket.packet(tag: OpenPGPPacket.signatureTag, body: body)
    }
}
