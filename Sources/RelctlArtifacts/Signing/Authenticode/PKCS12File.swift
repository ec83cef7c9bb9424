import Crypto
import CryptoExtras
import Foundation
import SwiftASN1

/// A PKCS#12 file (`.p12`, `.pfx`) read for its private key and certificates.
///
/// Accepted: what `openssl pkcs12 -export` writes with OpenSSL 3 (the default), and what Windows
/// exports with AES: bags encrypted with PBES2 (PBKDF2 with HMAC-SHA-256 or HMAC-SHA-1, then
/// AES-128/192/256-CBC) or not encrypted, and an integrity MAC of HMAC-SHA-256 or HMAC-SHA-1 (the
/// PKCS#12 key derivation). The legacy RC2/3DES schemes (`openssl pkcs12 -legacy`, OpenSSL 1.x's
/// default) are refused with a hint to convert the file.
package struct PKCS12File: Sendable {
    /// PKCS#8 PrivateKeyInfo, DER.
    package var privateKey: [UInt8]
    /// DER certificates, in the file's order.
    package var certificates: [[UInt8]]

    /// Why a file cannot be read: the wrong password, or something relctl does not read.
    package enum Problem: Error, Equatable {
        case wrongPassword
        case unsupported(String)
        case malformed(String)
    }

    package init(der: [UInt8], password: String) throws(Problem) {
        do {
            let pfx = try BER.parse(der)
            guard let version = try? Int(derEncoded: pfx.child(0)), version == 3 else {
                throw Problem.malformed("not a PKCS#12 file (no version 3 PFX)")
            }
            let authSafe = try pfx.child(1)
            guard try authSafe.child(0).objectIdentifier == AuthenticodeOID.data else {
                throw Problem.unsupported("its contents are not password-protected data (public-key integrity mode)")
            }
            let contents = try Self.octets(Self.explicitContent(authSafe))
            let pfxFields = try pfx.children
            guard pfxFields.count > 2 else {
                throw Problem.unsupported("it has no integrity MAC (written with `-nomac`); export it again with a MAC")
            }
            try Self.verifyMAC(pfxFields[2], over: contents, password: password)
            var privateKey: [UInt8]?
            var certificates: [[UInt8]] = []
            for info in try BER.parse(contents).children {
                let type = try info.child(0).objectIdentifier
                let safeContents: [UInt8]
                if type == AuthenticodeOID.data {
                    safeContents = try Self.octets(Self.explicitContent(info))
                } else if type == AuthenticodeOID.encryptedData {
                    let encrypted = try Self.explicitContent(info).child(1)
                    let algorithm = try encrypted.child(1)
                    let ciphertext = try encrypted.child(2)
                    guard ciphertext.isContext(0) else { throw Problem.malformed("encrypted bag content missing") }
                    let bytes: [UInt8]
                    if case .primitive(let raw) = ciphertext.content {
                        bytes = Array(raw)
                    } else {
                        bytes = try ciphertext.children.flatMap { Array(try $0.bytes) }
                    }
                    safeContents = try Self.decrypt(bytes, algorithm: algorithm, password: password)
                } else {
                    throw Problem.unsupported("it holds a bag of type \(type) (public-key encrypted)")
                }
                for bag in try BER.parse(safeContents).children {
                    let bagType = try bag.child(0).objectIdentifier
                    let value = try Self.explicitContent(bag)
                    if bagType == AuthenticodeOID.keyBag {
                        privateKey = Array(value.encodedBytes)
                    } else if bagType == AuthenticodeOID.shroudedKeyBag {
                        privateKey = try Self.decrypt(
                            Array(try value.child(1).bytes), algorithm: try value.child(0), password: password)
                    } else if bagType == AuthenticodeOID.certBag {
                        guard try value.child(0).objectIdentifier == AuthenticodeOID.x509Certificate else { continue }
                        let certificate = try value.child(1)
                        certificates.append(try Self.octets(try certificate.child(0)))
                    }
                }
            }
            guard let privateKey else { throw Problem.malformed("it holds no private key") }
            guard !certificates.isEmpty else { throw Problem.malformed("it holds no certificate") }
            self.privateKey = privateKey
            self.certificates = certificates
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.malformed("not a PKCS#12 file relctl can read (\(error))")
        }
    }

    /// The `[0] EXPLICIT` content of a ContentInfo or SafeBag.
    private static func explicitContent(_ node: ASN1Node) throws -> ASN1Node {
        let field = try node.child(1)
        guard field.isContext(0) else { throw Problem.malformed("content missing") }
        return try field.child(0)
    }

    /// An OCTET STRING's bytes (a BER constructed one joined).
    private static func octets(_ node: ASN1Node) throws -> [UInt8] {
        switch node.content {
        case .primitive(let bytes): return Array(bytes)
        case .constructed(let parts): return try parts.flatMap { try octets($0) }
        }
    }

    // MARK: Integrity

    private static func verifyMAC(_ macData: ASN1Node, over contents: [UInt8], password: String) throws {
        let digestInfo = try macData.child(0)
        let algorithm = try digestInfo.child(0).child(0).objectIdentifier
        let expected = Array(try digestInfo.child(1).bytes)
        let salt = Array(try macData.child(1).bytes)
        let fields = try macData.children
        let iterations = fields.count > 2 ? try Int(derEncoded: fields[2]) : 1
        guard iterations > 0, iterations <= 10_000_000 else { throw Problem.malformed("MAC iteration count \(iterations)") }
        // An empty password is tried both as the empty BMPString and as no password, as OpenSSL does.
        let candidates = password.isEmpty ? [bmpPassword(password), []] : [bmpPassword(password)]
        for candidate in candidates {
            let matches: Bool
            switch algorithm {
            case AuthenticodeOID.sha256:
                let key = pkcs12KDF(
                    SHA256.self, password: candidate, salt: salt, id: 3, iterations: iterations, length: 32)
                matches = Array(HMAC<SHA256>.authenticationCode(for: contents, using: SymmetricKey(data: key))) == expected
            case AuthenticodeOID.sha1:
                let key = pkcs12KDF(
                    Insecure.SHA1.self, password: candidate, salt: salt, id: 3, iterations: iterations, length: 20)
                matches =
                    Array(HMAC<Insecure.SHA1>.authenticationCode(for: contents, using: SymmetricKey(data: key)))
                    == expected
            default:
                throw Problem.unsupported("its MAC uses \(algorithm) (relctl reads HMAC-SHA-256 and HMAC-SHA-1)")
            }
            if matches { return }
        }
        throw Problem.wrongPassword
    }

    /// The password as PKCS#12's key derivation takes it: UTF-16 big-endian with a final NUL.
    private static func bmpPassword(_ password: String) -> [UInt8] {
        password.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } + [0, 0]
    }

    /// RFC 7292 appendix B.2.
    static func pkcs12KDF<H: HashFunction>(
        _ hash: H.Type, password: [UInt8], salt: [UInt8], id: UInt8, iterations: Int, length: Int
    ) -> [UInt8] {
        let u = H.Digest.byteCount
        let v = H.blockByteCount
        func stretch(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let total = v * ((bytes.count + v - 1) / v)
            return (0..<total).map { bytes[$0 % bytes.count] }
        }
        let diversifier = [UInt8](repeating: id, count: v)
        var input = stretch(salt) + stretch(password)
        var output: [UInt8] = []
        while output.count < length {
            var block = Array(H.hash(data: diversifier + input))
            for _ in 1..<iterations { block = Array(H.hash(data: block)) }
            output += block
            guard output.count < length else { break }
            let b = (0..<v).map { block[$0 % u] }
            for start in stride(from: 0, to: input.count, by: v) {
                var carry = 1
                for index in (0..<v).reversed() {
                    let sum = Int(input[start + index]) + Int(b[index]) + carry
                    input[start + index] = UInt8(sum & 0xFF)
                    carry = sum >> 8
                }
            }
        }
        return Array(output.prefix(length))
    }

    // MARK: Decryption

    private static func decrypt(_ ciphertext: [UInt8], algorithm: ASN1Node, password: String) throws -> [UInt8] {
        let scheme = try algorithm.child(0).objectIdentifier
        guard scheme == AuthenticodeOID.pbes2 else {
            throw Problem.unsupported(
                "it is encrypted with \(scheme) (a legacy PKCS#12 scheme such as RC2 or 3DES); convert it: `openssl pkcs12 -in old.p12 -legacy -nodes | openssl pkcs12 -export -out new.p12` (OpenSSL 3 writes PBES2 with AES-256-CBC)"
            )
        }
        let parameters = try algorithm.child(1)
        let kdf = try parameters.child(0)
        guard try kdf.child(0).objectIdentifier == AuthenticodeOID.pbkdf2 else {
            throw Problem.unsupported("its PBES2 key derivation is \(try kdf.child(0).objectIdentifier), not PBKDF2")
        }
        let kdfFields = try kdf.child(1).children
        let salt = Array(try kdfFields[0].bytes)
        let iterations = try Int(derEncoded: kdfFields[1])
        guard iterations > 0, iterations <= 10_000_000 else { throw Problem.malformed("PBKDF2 iteration count") }
        var prf = AuthenticodeOID.hmacWithSHA1
        for field in kdfFields.dropFirst(2) where field.identifier == .sequence {
            prf = try field.child(0).objectIdentifier
        }
        let cipher = try parameters.child(1)
        let keyLength: Int
        switch try cipher.child(0).objectIdentifier {
        case AuthenticodeOID.aes128CBC: keyLength = 16
        case AuthenticodeOID.aes192CBC: keyLength = 24
        case AuthenticodeOID.aes256CBC: keyLength = 32
        case let other:
            throw Problem.unsupported("it is encrypted with \(other) (relctl reads AES-128/192/256-CBC)")
        }
        let iv = Array(try cipher.child(1).bytes)
        let function: KDF.Insecure.PBKDF2.HashFunction
        switch prf {
        case AuthenticodeOID.hmacWithSHA256: function = .sha256
        case AuthenticodeOID.hmacWithSHA1: function = .insecureSHA1
        default: throw Problem.unsupported("its PBKDF2 uses \(prf) (relctl reads HMAC-SHA-256 and HMAC-SHA-1)")
        }
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: function, outputByteCount: keyLength,
            unsafeUncheckedRounds: iterations)
        do {
            return Array(try AES._CBC.decrypt(ciphertext, using: key, iv: try AES._CBC.IV(ivBytes: iv)))
        } catch {
            // The MAC matched, so the password is right: the bag itself is damaged.
            throw Problem.malformed("an encrypted bag does not decrypt (\(error))")
        }
    }
}
