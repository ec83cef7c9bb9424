import Foundation
import RelctlBasics

/// The OpenPGP (RFC 4880) encodings relctl writes: packet framing, multiprecision integers,
/// signature subpackets and ASCII armor. Only what an Ed25519 key and its signatures need.
package enum OpenPGPPacket {
    /// Tag 2.
    package static let signatureTag: UInt8 = 2
    /// Tag 6.
    package static let publicKeyTag: UInt8 = 6
    /// Tag 13.
    package static let userIDTag: UInt8 = 13

    /// An old-format packet (RFC 4880 4.2.1), the framing gpg uses for keys and rpm reads
    /// everywhere: a tag byte carrying the length's size, then the length, big-endian.
    package static func packet(tag: UInt8, body: [UInt8]) -> [UInt8] {
        let length = body.count
        if length < 0x100 { return [0x80 | tag << 2, UInt8(length)] + body }
        if length < 0x10000 { return [0x80 | tag << 2 | 1, UInt8(length >> 8), UInt8(length & 0xFF)] + body }
        return [0x80 | tag << 2 | 2] + bigEndian(UInt32(length)) + body
    }

    /// An MPI (RFC 4880 3.2): the bit count, then the bytes without leading zeros.
    package static func mpi(_ bytes: [UInt8]) -> [UInt8] {
        let trimmed = Array(bytes.drop { $0 == 0 })
        let bits = trimmed.first.map { (trimmed.count - 1) * 8 + (8 - $0.leadingZeroBitCount) } ?? 0
        return [UInt8(bits >> 8), UInt8(bits & 0xFF)] + trimmed
    }

    /// One signature subpacket (RFC 4880 5.2.3.1) with a one-byte length: every subpacket
    /// relctl writes is shorter than 192 bytes.
    package static func subpacket(_ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        [UInt8(data.count + 1), type] + data
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// ASCII armor (RFC 4880 6.2): 64-column base64 and the CRC-24 checksum line.
    package static func armored(_ bytes: [UInt8], kind: String) -> String {
        let base64 = Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let crc = crc24(bytes)
        let checksum = Data([UInt8(crc >> 16), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF)]).base64EncodedString()
        return "-----BEGIN PGP \(kind)-----\n\n\(base64)\n=\(checksum)\n-----END PGP \(kind)-----\n"
    }

    /// CRC-24 as RFC 4880 6.1 defines it.
    package static func crc24(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xB704CE
        for byte in bytes {
            crc ^= UInt32(byte) << 16
            for _ in 0..<8 {
                crc <<= 1
                if crc & 0x100_0000 != 0 { crc ^= 0x1864CFB }
            }
        }
        return crc & 0xFF_FFFF
    }
}
