import Foundation
import RelctlBasics

/// A DSSE envelope (github.com/secure-systems-lab/dsse, envelope.md), as in-toto attestations
/// carry them: the payload (base64) with its type, and signatures over the pre-authentication
/// encoding (PAE) of both, so a signature never covers bytes whose type is ambiguous.
package struct DSSEEnvelope: Codable, Sendable, Equatable {
    package struct Signature: Codable, Sendable, Equatable {
        /// Which key signed: here the key's `SHA256:` fingerprint, as `ssh-keygen -lf` prints it.
        package var keyid: String
        /// Base64 of the raw signature (64 bytes for Ed25519).
        package var sig: String
    }

    package static let inTotoPayloadType = "application/vnd.in-toto+json"

    package var payloadType: String
    /// Base64 (standard alphabet, padded) of the payload bytes.
    package var payload: String
    package var signatures: [Signature]

    /// `PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body`, LEN the byte
    /// count in ASCII decimal without leading zeros: what each signature signs.
    package static func preAuthenticationEncoding(payloadType: String, payload: Data) -> Data {
        let type = Data(payloadType.utf8)
        var bytes = Data("DSSEv1 \(type.count) ".utf8)
        bytes.append(type)
        bytes.append(Data(" \(payload.count) ".utf8))
        bytes.append(payload)
        return bytes
    }

    /// Signs `payload` with an OpenSSH Ed25519 key. libsodium's Ed25519 is deterministic
    /// (RFC 8032), so the same payload and key give the same envelope bytes on every machine.
    package static func sign(payload: Data, payloadType: String, key: OpenSSHPrivateKey) -> DSSEEnvelope {
        let message = preAuthenticationEncoding(payloadType: payloadType, payload: payload)
        var secret = Array(key.privateKey.rawRepresentation) + Array(key.privateKey.publicKey.rawRepresentation)
        defer { Sodium.wipe(&secret) }
        let signature = Sodium.sign(Array(message), secretKey: secret)
        return DSSEEnvelope(
            payloadType: payloadType, payload: payload.base64EncodedString(),
            signatures: [
                Signature(
                    keyid: SSHKeyFingerprint.sha256(ofBlob: key.publicKeyBlob),
                    sig: Data(signature).base64EncodedString())
            ])
    }

    /// The decoded payload, or nil when `payload` is not base64.
    package var payloadBytes: Data? { Data(base64Encoded: payload) }

    /// True when `signature` is a valid Ed25519 signature by `publicKey` (32 raw bytes) over this
    /// envelope's PAE.
    package func isValid(_ signature: Signature, publicKey: [UInt8]) -> Bool {
        guard let payload = payloadBytes, let raw = Data(base64Encoded: signature.sig) else { return false }
        let message = Self.preAuthenticationEncoding(payloadType: payloadType, payload: payload)
        return Sodium.verify(Array(raw), message: Array(message), publicKey: publicKey)
    }

    /// One line of JSON (the `.jsonl` form: one envelope per line), keys in a fixed order.
    package func jsonLine() throws -> String { try JSONOutput.compact(self) + "\n" }
}
