import Crypto
import CryptoExtras
import Foundation
import RelctlBasics

/// A repository signing key as `gpg --export-secret-keys --armor` writes it: the primary key of
/// the block (an EdDSA Ed25519 or an RSA key of 2048 bits or more, unprotected), which signs the
/// indexes, and the transferable public key made from the same block (the secret parts dropped,
/// gpg's own user IDs and self-signatures kept), which users put in their keyring.
package struct OpenPGPSecretKey: Sendable {
    /// The primary key's public-key packet body, as hashed into its fingerprint.
    package let publicBody: [UInt8]
    private let signer: Signer
    /// The binary transferable public key (what `gpg --export` writes): the `signed-by` keyring.
    package let publicKeyring: [UInt8]

    /// Reads an armored (or binary) secret key block; `source` names it in errors.
    package init(text: String, source: String) throws {
        let bytes = try Self.dearmor(text, source: source)
        var packets = try OpenPGPPacketReader.packets(bytes, source: source)
        guard let primary = packets.first, primary.tag == 5 else {
            throw SigningError.badKey(
                source: source,
                reason:
                    "not an OpenPGP secret key: export it with `gpg --export-secret-keys --armor KEYID` (a public key cannot sign)"
            )
        }
        let parsed = try Self.parseSecret(primary.body, source: source)
        publicBody = parsed.publicBody
        signer = parsed.signer
        var keyring: [UInt8] = []
        for index in packets.indices {
            switch packets[index].tag {
            case 5:
                keyring += OpenPGPPacket.packet(
                    tag: 6, body: try Self.parsePublicPart(packets[index].body, source: source))
            case 7:
                keyring += OpenPGPPacket.packet(
                    tag: 14, body: try Self.parsePublicPart(packets[index].body, source: source))
            case 2, 13, 17:
                keyring += OpenPGPPacket.packet(tag: packets[index].tag, body: packets[index].body)
            default:
                continue
            }
        }
        packets.removeAll()
        publicKeyring = keyring
    }

    /// The v4 fingerprint (RFC 4880 12.2).
    package var fingerprint: [UInt8] {
        Array(
            Insecure.SHA1.hash(data: [0x99, UInt8(publicBody.count >> 8), UInt8(publicBody.count & 0xFF)] + publicBody))
    }

    /// The key's creation time: gpg refuses a signature older than its key ("Time conflict"),
    /// so signatures are dated no earlier than this.
    package var created: UInt32 {
        UInt32(publicBody[1]) << 24 | UInt32(publicBody[2]) << 16 | UInt32(publicBody[3]) << 8 | UInt32(publicBody[4])
    }

    package var fingerprintText: String { fingerprint.map { String(format: "%02X", $0) }.joined() }

    /// The public key, armored (what `gpg --export --armor` writes).
    package var armoredPublicKey: String { OpenPGPPacket.armored(publicKeyring, kind: "PUBLIC KEY BLOCK") }

    /// A v4 signature packet of `type` (0x00 binary document, 0x01 canonical text) over `data`,
    /// made at `time`: creation time and issuer fingerprint hashed, issuer key ID unhashed (apt's
    /// gpgv and rpm look for either), SHA-256; Ed25519 over the digest, or RSA with PKCS#1 v1.5
    /// padding (RFC 4880 5.2.2). Neither has a random part, so the same input gives the same bytes.
    package func signature(type: UInt8, over data: [UInt8], time: UInt32) throws -> [UInt8] {
        let time = max(time, created)
        let hashedSubpackets =
            OpenPGPPacket.subpacket(2, OpenPGPPacket.bigEndian(time)) + OpenPGPPacket.subpacket(33, [4] + fingerprint)
        let hashed =
            [4, type, publicBody[5], OpenPGPSigningKey.sha256]
            + [UInt8(hashedSubpackets.count >> 8), UInt8(hashedSubpackets.count & 0xFF)] + hashedSubpackets
        var hash = SHA256()
        hash.update(data: data)
        hash.update(data: hashed)
        hash.update(data: [4, 0xFF] + OpenPGPPacket.bigEndian(UInt32(hashed.count)))
        let digest = hash.finalize()
        let values: [UInt8]
        switch signer {
        case .ed25519(let seed, let point):
            var secretKey = seed + point
            defer { Sodium.wipe(&secretKey) }
            let signature = Sodium.sign(Array(digest), secretKey: secretKey)
            values = OpenPGPPacket.mpi(Array(signature[0..<32])) + OpenPGPPacket.mpi(Array(signature[32..<64]))
        case .rsa(let key):
            let signature = try key.signature(for: digest, padding: .insecurePKCS1v1_5)
            values = OpenPGPPacket.mpi([UInt8](signature.rawRepresentation))
        }
        let unhashed = OpenPGPPacket.subpacket(16, Array(fingerprint.suffix(8)))
        let body =
            hashed + [UInt8(unhashed.count >> 8), UInt8(unhashed.count & 0xFF)] + unhashed + Array(digest).prefix(2)
            + values
        return OpenPGPPacket.packet(tag: OpenPGPPacket.signatureTag, body: body)
    }

    /// A detached, armored signature of `data` (Release.gpg, repomd.xml.asc).
    package func detachedSignature(of data: [UInt8], time: UInt32) throws -> String {
        OpenPGPPacket.armored(try signature(type: 0x00, over: data, time: time), kind: "SIGNATURE")
    }

    /// `text` clearsigned (RFC 4880 7): the dash-escaped text, then a text signature over its
    /// canonical form (trailing blanks dropped, CRLF line ends, no final line end).
    package func clearsigned(_ text: String, time: UInt32) throws -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let canonical = lines.map { line in
            var trimmed = Substring(line)
            while let last = trimmed.last, last == " " || last == "\t" || last == "\r" { trimmed = trimmed.dropLast() }
            return String(trimmed)
        }
        .joined(separator: "\r\n")
        let escaped = lines.map { $0.hasPrefix("-") ? "- " + $0 : $0 }.joined(separator: "\n")
        let signature = OpenPGPPacket.armored(
            try signature(type: 0x01, over: Array(canonical.utf8), time: time), kind: "SIGNATURE")
        return "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n" + escaped + "\n" + signature
    }

    // MARK: Reading

    /// The secret half that signs.
    private enum Signer: Sendable {
        case ed25519(seed: [UInt8], point: [UInt8])
        case rsa(_RSA.Signing.PrivateKey)
    }

    private struct Parsed {
        var publicBody: [UInt8]
        var signer: Signer
    }

    /// RSA Encrypt-or-Sign (1) and RSA Sign-Only (3): gpg writes 1 for an RSA primary key.
    package static let rsaAlgorithms: Set<UInt8> = [1, 3]

    /// The public part of a v4 secret-key packet (RFC 4880 5.5.3): version, time, algorithm and
    /// the algorithm's public fields.
    private static func parsePublicPart(_ body: [UInt8], source: String) throws -> [UInt8] {
        Array(body.prefix(try publicLength(body, source: source)))
    }

    private static func publicLength(_ body: [UInt8], source: String) throws -> Int {
        guard body.count > 6, body[0] == 4 else {
            throw SigningError.badKey(
                source: source, reason: "only version 4 OpenPGP keys are supported (gpg 2.2 and later write them)")
        }
        var reader = ByteCursor(body, offset: 6, source: source)
        switch body[5] {
        case 1, 2, 3:  // RSA: n, e
            try reader.skipMPI()
            try reader.skipMPI()
        case 17:  // DSA: p, q, g, y
            for _ in 0..<4 { try reader.skipMPI() }
        case 16:  // Elgamal: p, g, y
            for _ in 0..<3 { try reader.skipMPI() }
        case 18:  // ECDH: OID, point, KDF parameters
            try reader.skipOID()
            try reader.skipMPI()
            let length = Int(try reader.byte())
            try reader.skip(length)
        case 19, 22:  // ECDSA, EdDSA: OID, point
            try reader.skipOID()
            try reader.skipMPI()
        default:
            throw SigningError.badKey(source: source, reason: "public-key algorithm \(body[5]) is not supported")
        }
        return reader.offset
    }

    private static func parseSecret(_ body: [UInt8], source: String) throws -> Parsed {
        let end = try publicLength(body, source: source)
        if rsaAlgorithms.contains(body[5]) { return try parseRSA(body, publicEnd: end, source: source) }
        guard body[5] == OpenPGPSigningKey.eddsa else {
            throw SigningError.badKey(
                source: source,
                reason:
                    "the primary key uses OpenPGP algorithm \(body[5]); relctl signs repositories with Ed25519 or RSA keys (`gpg --quick-gen-key 'NAME <EMAIL>' ed25519 sign never`)"
            )
        }
        var reader = ByteCursor(body, offset: 6, source: source)
        let oidLength = Int(try reader.byte())
        let oid = try reader.take(oidLength)
        guard oid == OpenPGPSigningKey.ed25519OID else {
            throw SigningError.badKey(source: source, reason: "the EdDSA key is not on the Ed25519 curve")
        }
        let pointMPI = try reader.mpi()
        guard pointMPI.count == 33, pointMPI[0] == 0x40 else {
            throw SigningError.badKey(source: source, reason: "the Ed25519 public point is malformed")
        }
        reader.offset = end
        try unprotected(&reader)
        let secret = try reader.mpi()
        guard secret.count <= 32 else {
            throw SigningError.badKey(source: source, reason: "the Ed25519 secret scalar is longer than 32 bytes")
        }
        let seed = [UInt8](repeating: 0, count: 32 - secret.count) + secret
        let derived = try Curve25519.Signing.PrivateKey(rawRepresentation: seed).publicKey.rawRepresentation
        guard Array(derived) == Array(pointMPI.dropFirst()) else {
            throw SigningError.badKey(source: source, reason: "the secret key does not match its public key")
        }
        return Parsed(
            publicBody: Array(body[0..<end]), signer: .ed25519(seed: seed, point: Array(pointMPI.dropFirst())))
    }

    /// The S2K usage byte (RFC 4880 5.5.3): 0 is a secret stored in the clear.
    private static func unprotected(_ reader: inout ByteCursor) throws {
        guard try reader.byte() == 0 else {
            throw SigningError.password(
                source: reader.source,
                reason:
                    "the key is protected with a passphrase; relctl reads unprotected keys: export a copy with `gpg --export-secret-keys --armor --pinentry-mode loopback --passphrase '' KEYID` after `gpg --passwd` to an empty passphrase, and keep it in a CI secret"
            )
        }
    }

    /// An RSA secret key: n and e in the public part, then d, p, q and u (RFC 4880 5.5.3) and
    /// the two-octet sum of those bytes. swift-crypto checks that they make one key and derives
    /// the CRT values itself, so u is only counted.
    private static func parseRSA(_ body: [UInt8], publicEnd: Int, source: String) throws -> Parsed {
        var reader = ByteCursor(body, offset: 6, source: source)
        let n = try reader.mpi()
        let e = try reader.mpi()
        reader.offset = publicEnd
        try unprotected(&reader)
        let secretStart = reader.offset
        let d = try reader.mpi()
        let p = try reader.mpi()
        let q = try reader.mpi()
        _ = try reader.mpi()
        let sum = body[secretStart..<reader.offset].reduce(0) { ($0 + Int($1)) & 0xFFFF }
        let stored = try reader.take(2)
        guard sum == Int(stored[0]) << 8 | Int(stored[1]) else {
            throw SigningError.badKey(
                source: source, reason: "the RSA secret key's checksum does not match: the key text was altered or cut")
        }
        guard n.count * 8 >= 2048 else {
            throw SigningError.badKey(
                source: source,
                reason:
                    "the RSA key has \(n.count * 8) bits; relctl signs with RSA keys of 2048 bits or more (`gpg --quick-gen-key 'NAME <EMAIL>' rsa3072 sign never`)"
            )
        }
        let key: _RSA.Signing.PrivateKey
        do { key = try _RSA.Signing.PrivateKey(n: n, e: e, d: d, p: p, q: q) } catch {
            throw SigningError.badKey(
                source: source, reason: "the RSA key's numbers do not form a valid key (\(error))")
        }
        return Parsed(publicBody: Array(body[0..<publicEnd]), signer: .rsa(key))
    }

    /// The bytes of an armored block (RFC 4880 6.2), checked against its CRC-24; binary input as is.
    package static func dearmor(_ text: String, source: String) throws -> [UInt8] {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN PGP ") }) else {
            throw SigningError.badKey(
                source: source, reason: "no `-----BEGIN PGP PRIVATE KEY BLOCK-----` line: not an armored OpenPGP key")
        }
        var index = begin + 1
        while index < lines.count, lines[index].contains(":") { index += 1 }
        var base64 = ""
        var checksum: String?
        while index < lines.count, !lines[index].hasPrefix("-----END ") {
            let line = lines[index]
            if line.hasPrefix("=") { checksum = String(line.dropFirst()) } else { base64 += line }
            index += 1
        }
        guard index < lines.count, let data = Data(base64Encoded: base64) else {
            throw SigningError.badKey(source: source, reason: "the armored key is truncated or not valid base64")
        }
        let bytes = [UInt8](data)
        if let checksum, let crc = Data(base64Encoded: checksum), crc.count == 3 {
            let expected = UInt32(crc[0]) << 16 | UInt32(crc[1]) << 8 | UInt32(crc[2])
            guard OpenPGPPacket.crc24(bytes) == expected else {
                throw SigningError.badKey(
                    source: source, reason: "the armor checksum does not match: the key text was altered or cut")
            }
        }
        return bytes
    }
}

/// Reads the packets of an OpenPGP message (old and new framing, RFC 4880 4.2).
package enum OpenPGPPacketReader {
    package struct Packet: Sendable {
        package var tag: UInt8
        package var body: [UInt8]
    }

    package static func packets(_ bytes: [UInt8], source: String) throws -> [Packet] {
        var packets: [Packet] = []
        var cursor = ByteCursor(bytes, offset: 0, source: source)
        while cursor.offset < bytes.count {
            let header = try cursor.byte()
            guard header & 0x80 != 0 else {
                throw SigningError.badKey(
                    source: source, reason: "malformed OpenPGP packet header at byte \(cursor.offset - 1)")
            }
            let tag: UInt8
            let length: Int
            if header & 0x40 != 0 {
                tag = header & 0x3F
                let first = Int(try cursor.byte())
                if first < 192 {
                    length = first
                } else if first < 224 {
                    length = ((first - 192) << 8) + Int(try cursor.byte()) + 192
                } else if first == 255 {
                    length = try cursor.uint32()
                } else {
                    throw SigningError.badKey(
                        source: source, reason: "partial-length OpenPGP packets are not supported in keys")
                }
            } else {
                tag = (header >> 2) & 0x0F
                switch header & 0x03 {
                case 0: length = Int(try cursor.byte())
                case 1: length = Int(try cursor.byte()) << 8 | Int(try cursor.byte())
                case 2: length = try cursor.uint32()
                default: length = bytes.count - cursor.offset
                }
            }
            packets.append(Packet(tag: tag, body: try cursor.take(length)))
        }
        return packets
    }
}

/// A bounds-checked reader over packet bytes: every overrun is a `badKey` naming the source.
package struct ByteCursor {
    package let bytes: [UInt8]
    package var offset: Int
    package let source: String

    package init(_ bytes: [UInt8], offset: Int, source: String) {
        self.bytes = bytes
        self.offset = offset
        self.source = source
    }

    package mutating func byte() throws -> UInt8 { try take(1)[0] }

    package mutating func uint32() throws -> Int {
        let four = try take(4)
        return Int(four[0]) << 24 | Int(four[1]) << 16 | Int(four[2]) << 8 | Int(four[3])
    }

    package mutating func take(_ count: Int) throws -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else {
            throw SigningError.badKey(source: source, reason: "the OpenPGP data ends early (truncated key?)")
        }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    package mutating func skip(_ count: Int) throws { _ = try take(count) }

    package mutating func mpi() throws -> [UInt8] {
        let high = Int(try byte())
        let bits = high << 8 | Int(try byte())
        return try take((bits + 7) / 8)
    }

    package mutating func skipMPI() throws { _ = try mpi() }

    package mutating func skipOID() throws {
        let length = Int(try byte())
        try skip(length)
    }
}
