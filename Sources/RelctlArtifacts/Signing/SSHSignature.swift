import Crypto
import Foundation
import RelctlBasics

/// An SSH signature in OpenSSH's SSHSIG format (PROTOCOL.sshsig), as `ssh-keygen -Y sign` makes
/// and `ssh-keygen -Y verify` checks: Ed25519 over a blob binding the namespace and the
/// message's SHA-512, armored as `-----BEGIN SSH SIGNATURE-----`.
package struct SSHSignature: Sendable, Equatable {
    /// The namespace relctl signs release files under, as ssh-keygen's `-n file`.
    package static let fileNamespace = "file"
    package static let magic = Array("SSHSIG".utf8)
    package static let begin = "-----BEGIN SSH SIGNATURE-----"
    package static let end = "-----END SSH SIGNATURE-----"

    /// The signer's public key blob (`string "ssh-ed25519", string key`).
    package var publicKeyBlob: [UInt8]
    package var namespace: String
    package var hashAlgorithm: String
    /// The raw Ed25519 signature (64 bytes).
    package var signature: [UInt8]

    /// Signs `message` under `namespace` with SHA-512, as `ssh-keygen -Y sign -n NAMESPACE` does.
    package static func sign(
        _ message: Data, key: OpenSSHPrivateKey, namespace: String = fileNamespace
    ) throws -> SSHSignature {
        let signed = signedData(message: message, namespace: namespace, hashAlgorithm: "sha512")
        let raw = try key.privateKey.signature(for: Data(signed))
        return SSHSignature(
            publicKeyBlob: key.publicKeyBlob, namespace: namespace, hashAlgorithm: "sha512", signature: Array(raw))
    }

    /// The blob that is actually signed: magic, namespace, reserved, hash name, H(message).
    package static func signedData(message: Data, namespace: String, hashAlgorithm: String) -> [UInt8] {
        let digest: [UInt8] =
            hashAlgorithm == "sha256" ? Array(SHA256.hash(data: message)) : Array(SHA512.hash(data: message))
        var writer = SSHWireWriter()
        writer.raw(magic)
        writer.string(namespace)
        writer.string([UInt8]())
        writer.string(hashAlgorithm)
        writer.string(digest)
        return writer.bytes
    }

    package static func publicKeyBlob(_ key: Curve25519.Signing.PublicKey) -> [UInt8] {
        var writer = SSHWireWriter()
        writer.string("ssh-ed25519")
        writer.string(Array(key.rawRepresentation))
        return writer.bytes
    }

    /// The armored text, base64 wrapped at 70 columns like ssh-keygen's.
    package var armored: String {
        var writer = SSHWireWriter()
        writer.raw(Self.magic)
        writer.uint32(1)
        writer.string(publicKeyBlob)
        writer.string(namespace)
        writer.string([UInt8]())
        writer.string(hashAlgorithm)
        var signatureBlob = SSHWireWriter()
        signatureBlob.string("ssh-ed25519")
        signatureBlob.string(signature)
        writer.string(signatureBlob.bytes)
        let body = Data(writer.bytes).base64EncodedString()
        var lines = [Self.begin]
        var index = body.startIndex
        while index < body.endIndex {
            let next = body.index(index, offsetBy: 70, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[index..<next]))
            index = next
        }
        lines.append(Self.end)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses an armored signature; `file` names it for messages (a malformed one is a bad signature, exit 1).
    package init(armored text: String, file: String) throws {
        func bad(_ reason: String) -> SigningError { .badSignature(file: file, reason: reason) }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.firstIndex(of: Self.begin), let last = lines.firstIndex(of: Self.end), first < last,
            let data = Data(base64Encoded: lines[(first + 1)..<last].joined())
        else {
            throw bad("not an SSH signature (no valid `\(Self.begin)` block)")
        }
        var reader = SSHWireReader(Array(data))
        do {
            guard try reader.raw(6) == Self.magic, try reader.uint32() == 1 else {
                throw bad("not an SSHSIG version 1 signature")
            }
            publicKeyBlob = try reader.string()
            namespace = try reader.text()
            _ = try reader.string()
            hashAlgorithm = try reader.text()
            var signatureReader = SSHWireReader(try reader.string())
            let type = try signatureReader.text()
            guard type == "ssh-ed25519" else {
                throw bad("signed with a `\(type)` key; relctl verifies Ed25519 signatures only")
            }
            signature = try signatureReader.string()
        } catch is SSHWireReader.Truncated {
            throw bad("the SSH signature is truncated")
        }
        guard ["sha256", "sha512"].contains(hashAlgorithm) else {
            throw bad("unknown hash algorithm `\(hashAlgorithm)` in the signature")
        }
    }

    package init(publicKeyBlob: [UInt8], namespace: String, hashAlgorithm: String, signature: [UInt8]) {
        self.publicKeyBlob = publicKeyBlob
        self.namespace = namespace
        self.hashAlgorithm = hashAlgorithm
        self.signature = signature
    }

    /// True when the signature is a valid Ed25519 signature of `message` by its embedded key
    /// under `namespace`. Whether that key is trusted is the caller's question (`AllowedSigners`).
    package func isValid(for message: Data, namespace expected: String = fileNamespace) -> Bool {
        guard namespace == expected, let key = Self.ed25519Key(fromBlob: publicKeyBlob) else { return false }
        let signed = Self.signedData(message: message, namespace: namespace, hashAlgorithm: hashAlgorithm)
        return key.isValidSignature(signature, for: Data(signed))
    }

    package static func ed25519Key(fromBlob blob: [UInt8]) -> Curve25519.Signing.PublicKey? {
        var reader = SSHWireReader(blob)
        guard (try? reader.text()) == "ssh-ed25519", let raw = try? reader.string(), reader.isAtEnd else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }
}

/// Reads the SSH wire encoding; every read is bounds-checked and a short buffer throws.
package struct SSHWireReader {
    package struct Truncated: Error {}

    private let bytes: [UInt8]
    package private(set) var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset == bytes.count }
    package var remaining: ArraySlice<UInt8> { bytes[offset...] }

    package mutating func raw(_ count: Int) throws -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw Truncated() }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    package mutating func uint32() throws -> UInt32 {
        let b = try raw(4)
        return UInt32(b[0]) << 24 | UInt32(b[1]) << 16 | UInt32(b[2]) << 8 | UInt32(b[3])
    }

    package mutating func string() throws -> [UInt8] { try raw(Int(try uint32())) }

    package mutating func text() throws -> String { String(decoding: try string(), as: UTF8.self) }
}

/// The SSH wire encoding (RFC 4251 §5) used by OpenSSH keys and SSHSIG: big-endian `uint32`
/// and length-prefixed `string`s.
package struct SSHWireWriter {
    package private(set) var bytes: [UInt8] = []

    package mutating func raw(_ data: some Sequence<UInt8>) { bytes.append(contentsOf: data) }

    package mutating func uint32(_ value: UInt32) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xff), UInt8((value >> 8) & 0xff), UInt8(value & 0xff)]
    }

    package mutating func string(_ data: some Collection<UInt8>) {
        uint32(UInt32(data.count))
        bytes.append(contentsOf: data)
    }

    package mutating func string(_ text: String) { string(Array(text.utf8)) }
}

/// OpenSSH's key fingerprint, `SHA256:` and the unpadded base64 of the SHA-256 of the public
/// key's wire blob, as `ssh-keygen -lf KEY` prints it. DSSE envelopes name their signing key by it.
package enum SSHKeyFingerprint {
    package static func sha256(ofBlob blob: [UInt8]) -> String {
        var text = Data(SHA256.hash(data: Data(blob))).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return "SHA256:" + text
    }
}
