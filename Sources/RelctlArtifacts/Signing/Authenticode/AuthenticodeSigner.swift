import Crypto
import Foundation
import RelctlBasics
import RelctlModel
import SwiftASN1

/// Authenticode-signs PE images: the image's SHA-256 digest in an SpcIndirectDataContent, a
/// PKCS#7 SignedData over it (signed attributes contentType, SpcStatementType, SpcSpOpusInfo and
/// messageDigest; no signing time, so the bytes depend only on the image and the key) with the
/// signer's certificate chain, and, with a time-stamping authority, its RFC 3161 token as an
/// unsigned attribute (1.3.6.1.4.1.311.3.3.1, what signtool /tr writes).
package struct AuthenticodeSigner: Sendable {
    package var key: AuthenticodeKey
    package var timestampURL: URL?
    package var http: any HTTPClient

    package init(key: AuthenticodeKey, timestampURL: URL?, http: any HTTPClient) {
        self.key = key
        self.timestampURL = timestampURL
        self.http = http
    }

    /// The signer for `config`'s `[windows]` table, nil when no key is configured (the key is
    /// read now: a missing or wrong one stops the run before anything is written).
    package static func load(config: RelctlConfig, keysRoot: URL, context: Context) throws -> AuthenticodeSigner? {
        guard
            let key = try AuthenticodeKey.load(
                settings: config.windows, config: config.path, root: keysRoot, environment: context.environment)
        else { return nil }
        return AuthenticodeSigner(key: key, timestampURL: config.windows.timestampURL, http: context.http)
    }

    /// `image` signed; a signature it already has is replaced.
    package func sign(_ image: PEImage) async throws -> [UInt8] {
        let indirect = Self.indirectData(digest: image.digest)
        let attributes = [
            DERBytes.attribute(AuthenticodeOID.contentType, DERBytes.oid(AuthenticodeOID.spcIndirectData)),
            DERBytes.attribute(
                AuthenticodeOID.spcStatementType,
                DERBytes.sequence([DERBytes.oid(AuthenticodeOID.spcIndividualCodeSigning)])),
            DERBytes.attribute(AuthenticodeOID.spcSpOpusInfo, DERBytes.sequence([])),
            DERBytes.attribute(
                AuthenticodeOID.messageDigest,
                DERBytes.octetString(SHA256.hash(data: try DERBytes.content(of: indirect)))),
        ]
        // The signature is over the attributes as a DER SET OF; the SignerInfo holds them as [0].
        let signature = try key.sign(DERBytes.setOf(attributes))
        var unsigned: [[UInt8]] = []
        if let timestampURL {
            let token = try await timestamp(signature, url: timestampURL)
            unsigned.append(DERBytes.attribute(AuthenticodeOID.rfc3161Timestamp, token))
        }
        var signerFields = [
            DERBytes.integer(1),
            DERBytes.sequence([key.issuer, key.serialNumber]),
            DERBytes.algorithm(AuthenticodeOID.sha256),
            DERBytes.context(0, DERBytes.sorted(attributes)),
            DERBytes.algorithm(AuthenticodeOID.rsaEncryption),
            DERBytes.octetString(signature),
        ]
        if !unsigned.isEmpty { signerFields.append(DERBytes.context(1, DERBytes.sorted(unsigned))) }
        let signedData = DERBytes.sequence([
            DERBytes.integer(1),
            DERBytes.setOf([DERBytes.algorithm(AuthenticodeOID.sha256)]),
            DERBytes.sequence([DERBytes.oid(AuthenticodeOID.spcIndirectData), DERBytes.context(0, [indirect])]),
            DERBytes.context(0, DERBytes.sorted(key.certificates)),
            DERBytes.setOf([DERBytes.sequence(signerFields)]),
        ])
        let contentInfo = DERBytes.sequence([DERBytes.oid(AuthenticodeOID.signedData), DERBytes.context(0, [signedData])])
        return image.signed(with: contentInfo)
    }

    /// SpcIndirectDataContent: a PE image (SpcPeImageData with no flags and the customary
    /// `<<<Obsolete>>>` file link) and its SHA-256 digest.
    static func indirectData(digest: [UInt8]) -> [UInt8] {
        let obsolete = "<<<Obsolete>>>".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let link = DERBytes.context(
            0, [DERBytes.context(2, [DERBytes.primitive(ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific), obsolete)])])
        let peImageData = DERBytes.sequence([DERBytes.primitive(.bitString, [0x00]), link])
        return DERBytes.sequence([
            DERBytes.sequence([DERBytes.oid(AuthenticodeOID.spcPEImageData), peImageData]),
            DERBytes.sequence([DERBytes.algorithm(AuthenticodeOID.sha256), DERBytes.octetString(digest)]),
        ])
    }

    // MARK: Timestamp

    /// The most bytes a timestamp reply may have: a token with its TSA's chain is a few KiB.
    static let replyLimit: Int64 = 1 << 20

    /// An RFC 3161 TimeStampToken over `signature` (the SignerInfo's encryptedDigest) from `url`.
    func timestamp(_ signature: [UInt8], url: URL) async throws -> [UInt8] {
        let imprint = Array(SHA256.hash(data: signature))
        let query = DERBytes.sequence([
            DERBytes.integer(1),
            DERBytes.sequence([DERBytes.algorithm(AuthenticodeOID.sha256), DERBytes.octetString(imprint)]),
            DERBytes.true,
        ])
        var request = HTTPRequest(
            method: "POST", url: url,
            headers: ["Content-Type": "application/timestamp-query", "Accept": "application/timestamp-reply"],
            body: .data(Data(query)), timeout: 60)
        request.responseLimit = Self.replyLimit
        let shown = request.summary
        let response: HTTPResponse
        do {
            response = try await http.send(request)
        } catch let error as RelctlError {
            throw AuthenticodeError.timestamp(url: shown, reason: error.message)
        }
        guard response.status == 200 else {
            throw AuthenticodeError.timestamp(url: shown, reason: "HTTP \(response.status)")
        }
        return try Self.token(fromReply: Array(response.body), imprint: imprint, url: shown)
    }

    /// The TimeStampToken of a granted TimeStampResp whose TSTInfo stamps `imprint`.
    static func token(fromReply reply: [UInt8], imprint: [UInt8], url: String) throws -> [UInt8] {
        do {
            let response = try DER.parse(reply)
            let status = try Int(derEncoded: response.child(0).child(0))
            // 0 granted, 1 granted with modifications.
            guard status == 0 || status == 1 else {
                throw AuthenticodeError.timestamp(url: url, reason: "the authority refused the request (PKIStatus \(status))")
            }
            let token = try response.child(1)
            // ContentInfo → SignedData → encapContentInfo → [0] → OCTET STRING TSTInfo → messageImprint.
            let signedData = try token.child(1).child(0)
            let tstInfo = try DER.parse(Array(try signedData.child(2).child(1).child(0).bytes))
            let stamped = Array(try tstInfo.child(2).child(1).bytes)
            guard stamped == imprint else {
                throw AuthenticodeError.timestamp(url: url, reason: "the token stamps another digest than the one sent")
            }
            return Array(token.encodedBytes)
        } catch let error as AuthenticodeError {
            throw error
        } catch {
            throw AuthenticodeError.timestamp(url: url, reason: "the reply is no RFC 3161 TimeStampResp (\(error))")
        }
    }
}
