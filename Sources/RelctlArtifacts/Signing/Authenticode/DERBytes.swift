import SwiftASN1

/// DER built from encoded parts with swift-asn1's serializer, and read back with its parser: the
/// Authenticode structures are assembled from pieces (a certificate, a digest, a timestamp token)
/// that are already DER, so they are joined as bytes.
enum DERBytes {
    static func constructed(_ identifier: ASN1Identifier, _ children: [[UInt8]]) -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: identifier) { inner in
            for child in children { inner.serializeRawBytes(child) }
        }
        return serializer.serializedBytes
    }

    static func primitive(_ identifier: ASN1Identifier, _ content: [UInt8]) -> [UInt8] {
        var serializer = DER.Serializer()
        serializer.appendPrimitiveNode(identifier: identifier) { $0.append(contentsOf: content) }
        return serializer.serializedBytes
    }

    static func sequence(_ children: [[UInt8]]) -> [UInt8] { constructed(.sequence, children) }

    /// A SET OF: DER orders its elements by their encodings.
    static func setOf(_ children: [[UInt8]]) -> [UInt8] { constructed(.set, sorted(children)) }

    static func sorted(_ children: [[UInt8]]) -> [[UInt8]] {
        children.sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func oid(_ oid: ASN1ObjectIdentifier) -> [UInt8] {
        var serializer = DER.Serializer()
        // An OID value always serializes.
        try? serializer.serialize(oid)
        return serializer.serializedBytes
    }

    static func octetString<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        primitive(.octetString, Array(bytes))
    }

    static func integer(_ value: Int) -> [UInt8] {
        var serializer = DER.Serializer()
        try? serializer.serialize(value)
        return serializer.serializedBytes
    }

    static let null: [UInt8] = [0x05, 0x00]
    static let `true`: [UInt8] = [0x01, 0x01, 0xFF]

    /// `[n]` around encoded children (EXPLICIT tagging, or IMPLICIT over a constructed type).
    static func context(_ number: UInt, _ children: [[UInt8]]) -> [UInt8] {
        constructed(ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific), children)
    }

    /// An AlgorithmIdentifier with NULL parameters (digests and rsaEncryption).
    static func algorithm(_ oid: ASN1ObjectIdentifier, nullParameters: Bool = true) -> [UInt8] {
        sequence(nullParameters ? [DERBytes.oid(oid), null] : [DERBytes.oid(oid)])
    }

    /// An Attribute: its type and a SET holding the one value.
    static func attribute(_ oid: ASN1ObjectIdentifier, _ value: [UInt8]) -> [UInt8] {
        sequence([DERBytes.oid(oid), setOf([value])])
    }

    /// The content octets of one encoded node, without its identifier and length.
    static func content(of encoded: [UInt8]) throws -> ArraySlice<UInt8> {
        let node = try DER.parse(encoded)
        let headerLength = node.encodedBytes.count - contentLength(of: node)
        return encoded[encoded.startIndex + headerLength..<encoded.endIndex]
    }

    private static func contentLength(of node: ASN1Node) -> Int {
        switch node.content {
        case .primitive(let bytes): return bytes.count
        case .constructed(let children): return children.reduce(0) { $0 + $1.encodedBytes.count }
        }
    }
}

/// The OIDs Authenticode, CMS, PKCS#12 and RFC 3161 use.
enum AuthenticodeOID {
    static let data: ASN1ObjectIdentifier = "1.2.840.113549.1.7.1"
    static let signedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.2"
    static let encryptedData: ASN1ObjectIdentifier = "1.2.840.113549.1.7.6"
    static let contentType: ASN1ObjectIdentifier = "1.2.840.113549.1.9.3"
    static let messageDigest: ASN1ObjectIdentifier = "1.2.840.113549.1.9.4"
    static let sha1: ASN1ObjectIdentifier = "1.3.14.3.2.26"
    static let sha256: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.2.1"
    static let rsaEncryption: ASN1ObjectIdentifier = "1.2.840.113549.1.1.1"
    static let ecPublicKey: ASN1ObjectIdentifier = "1.2.840.10045.2.1"
    static let ecdsaWithSHA256: ASN1ObjectIdentifier = "1.2.840.10045.4.3.2"
    /// SPC_INDIRECT_DATA_OBJID: the content type of an Authenticode signature.
    static let spcIndirectData: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.2.1.4"
    /// SPC_PE_IMAGE_DATAOBJ: what the indirect data describes, a PE image.
    static let spcPEImageData: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.2.1.15"
    static let spcStatementType: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.2.1.11"
    static let spcIndividualCodeSigning: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.2.1.21"
    static let spcSpOpusInfo: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.2.1.12"
    /// The unsigned attribute holding an RFC 3161 TimeStampToken (a countersignature).
    static let rfc3161Timestamp: ASN1ObjectIdentifier = "1.3.6.1.4.1.311.3.3.1"
    static let pbes2: ASN1ObjectIdentifier = "1.2.840.113549.1.5.13"
    static let pbkdf2: ASN1ObjectIdentifier = "1.2.840.113549.1.5.12"
    static let hmacWithSHA1: ASN1ObjectIdentifier = "1.2.840.113549.2.7"
    static let hmacWithSHA256: ASN1ObjectIdentifier = "1.2.840.113549.2.9"
    static let aes128CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.2"
    static let aes192CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.22"
    static let aes256CBC: ASN1ObjectIdentifier = "2.16.840.1.101.3.4.1.42"
    static let keyBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.1"
    static let shroudedKeyBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.2"
    static let certBag: ASN1ObjectIdentifier = "1.2.840.113549.1.12.10.1.3"
    static let x509Certificate: ASN1ObjectIdentifier = "1.2.840.113549.1.9.22.1"
}

/// Reading parsed nodes: the children of a constructed node, the bytes of a primitive one.
extension ASN1Node {
    var children: [ASN1Node] {
        get throws {
            guard case .constructed(let nodes) = content else { throw ASN1Error.invalidASN1Object(reason: "primitive") }
            return Array(nodes)
        }
    }

    var bytes: ArraySlice<UInt8> {
        get throws {
            guard case .primitive(let bytes) = content else { throw ASN1Error.invalidASN1Object(reason: "constructed") }
            return bytes
        }
    }

    var objectIdentifier: ASN1ObjectIdentifier {
        get throws { try ASN1ObjectIdentifier(derEncoded: self) }
    }

    func child(_ index: Int) throws -> ASN1Node {
        let all = try children
        guard index < all.count else { throw ASN1Error.invalidASN1Object(reason: "missing field") }
        return all[index]
    }

    func isContext(_ number: UInt) -> Bool {
        identifier == ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific)
    }
}
