import Crypto
import CryptoExtras
import Foundation
import RelctlBasics
import RelctlModel
import SwiftASN1

/// The Authenticode signing key: an RSA key (2048 bits or more) and its certificate chain, read
/// from a PKCS#12 file.
package struct AuthenticodeKey: Sendable {
    /// A path to the PKCS#12 file, in place of `[windows] signing-key`.
    package static let keyVariable = WindowsSettings.keyVariable
    /// The PKCS#12 file's password.
    package static let passwordVariable = WindowsSettings.passwordVariable

    package var privateKey: _RSA.Signing.PrivateKey
    /// The signer's certificate, DER.
    package var certificate: [UInt8]
    /// Every certificate of the file (the signer's and the chain it came with), DER.
    package var certificates: [[UInt8]]
    /// The signer's certificate's issuer Name and serialNumber INTEGER, DER (the SignerInfo's sid).
    package var issuer: [UInt8]
    package var serialNumber: [UInt8]
    /// Where the key came from, for messages.
    package var source: String

    /// True when a key is configured: `[windows] signing-key` or `RELCTL_WINDOWS_KEY`.
    package static func isConfigured(_ settings: WindowsSettings, environment: [String: String]) -> Bool {
        settings.signingKey != nil || !(environment[keyVariable] ?? "").isEmpty
    }

    /// Reads the configured key; nil when none is configured. A file that cannot be read, is not
    /// a PKCS#12 file relctl reads, or does not open with the password is bad input (exit 2).
    package static func load(
        settings: WindowsSettings, config: String, root: URL, environment: [String: String]
    ) throws -> AuthenticodeKey? {
        guard let (data, source) = try bytes(settings: settings, config: config, root: root, environment: environment)
        else { return nil }
        let password = environment[passwordVariable] ?? ""
        return try AuthenticodeKey(pkcs12: Array(data), password: password, source: source)
    }

    /// The configured PKCS#12 file's bytes and where they came from; nil when no key is configured.
    /// Also what the MSI signer hands osslsigncode, so both read one key one way.
    package static func bytes(
        settings: WindowsSettings, config: String, root: URL, environment: [String: String]
    ) throws -> (Data, String)? {
        if let path = environment[keyVariable], !path.isEmpty {
            let source = "$\(keyVariable) (\(path))"
            guard let read = FileSystem.contents(of: RelctlConfig.resolve(path, root: root)) else {
                throw AuthenticodeError.keyUnreadable(
                    source: source,
                    reason: "cannot be read; set \(keyVariable) to the path of a PKCS#12 file (.p12/.pfx)")
            }
            return (read, source)
        } else if let path = settings.signingKey {
            let file = try ProjectFile.open(path, in: root, what: "[windows] signing-key")
            guard let read = file.data() else {
                throw AuthenticodeError.keyUnreadable(
                    source: path,
                    reason:
                        "`[windows] signing-key` in \(config) names this file but it cannot be read (paths are relative to the project root, \(root.path)); create it (docs/windows.md, \"Keys\") or set \(keyVariable)"
                )
            }
            return (read, path)
        }
        return nil
    }

    package init(pkcs12: [UInt8], password: String, source: String) throws {
        let file: PKCS12File
        do {
            file = try PKCS12File(der: pkcs12, password: password)
        } catch .wrongPassword {
            throw AuthenticodeError.wrongPassword(source: source, passwordSet: !password.isEmpty)
        } catch .unsupported(let reason) {
            throw AuthenticodeError.keyUnreadable(source: source, reason: "is a PKCS#12 file relctl cannot read: \(reason)")
        } catch .malformed(let reason) {
            throw AuthenticodeError.keyUnreadable(source: source, reason: reason)
        }
        let algorithm = try? DER.parse(file.privateKey).child(1).child(0).objectIdentifier
        guard algorithm == AuthenticodeOID.rsaEncryption else {
            throw AuthenticodeError.keyUnreadable(
                source: source,
                reason:
                    "holds a private key of type \(algorithm.map { "\($0)" } ?? "unknown") (relctl signs with RSA keys of 2048 bits or more)"
            )
        }
        do {
            privateKey = try _RSA.Signing.PrivateKey(derRepresentation: file.privateKey)
        } catch {
            throw AuthenticodeError.keyUnreadable(
                source: source, reason: "holds an RSA key relctl cannot use (2048 bits or more are needed): \(error)")
        }
        let publicKey = Array(privateKey.publicKey.derRepresentation)
        guard
            let signer = file.certificates.first(where: {
                (try? Self.tbsField($0, 6).encodedBytes).map(Array.init) == publicKey
            }),
            let issuer = try? Array(Self.tbsField(signer, 3).encodedBytes),
            let serial = try? Array(Self.tbsField(signer, 1).encodedBytes)
        else {
            throw AuthenticodeError.keyUnreadable(
                source: source,
                reason:
                    "holds no certificate for its private key; export the key with its code-signing certificate (`openssl pkcs12 -export -inkey key.pem -in cert.pem -certfile ca.pem`)"
            )
        }
        certificate = signer
        // The signer's first, then the rest of the chain as the file has it.
        certificates = [signer] + file.certificates.filter { $0 != signer }
        self.issuer = issuer
        serialNumber = serial
        self.source = source
    }

    /// A field of a certificate's TBSCertificate counted as if `version` were always present
    /// (1 serialNumber, 3 issuer, 5 subject, 6 subjectPublicKeyInfo).
    private static func tbsField(_ certificate: [UInt8], _ index: Int) throws -> ASN1Node {
        let tbs = try DER.parse(certificate).child(0)
        let hasVersion = try tbs.child(0).isContext(0)
        return try tbs.child(hasVersion ? index : index - 1)
    }

    /// PKCS#1 v1.5 with SHA-256 over `message`: deterministic, so a signature without a
    /// timestamp is the same bytes each time.
    package func sign(_ message: [UInt8]) throws -> [UInt8] {
        Array(try privateKey.signature(for: message, padding: .insecurePKCS1v1_5).rawRepresentation)
    }
}
