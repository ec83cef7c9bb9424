import Crypto
import Foundation

/// A PE image (a Windows `.exe` or `.dll`) as Authenticode reads and writes it: where the
/// checksum and the certificate table's directory entry are, the image's digest, and the image
/// with a signature in its certificate table.
///
/// An image that is already signed is taken without its signature (the certificate table is cut
/// off and its directory entry cleared), so signing a signed file replaces the signature. The
/// image is padded with zeros to a multiple of 8 bytes, where the certificate table must start;
/// the padding is part of the signed bytes.
package struct PEImage: Sendable {
    /// The image without a certificate table, padded to 8 bytes.
    package private(set) var bytes: [UInt8]
    /// File offset of the optional header's CheckSum.
    package let checksumOffset: Int
    /// File offset of the certificate table's entry (index 4) in the data directories.
    package let certificateEntryOffset: Int

    /// Why a file is not a PE image relctl can sign.
    package struct Malformed: Error, Equatable {
        package var reason: String
    }

    package init(_ data: [UInt8]) throws(Malformed) {
        func field(_ offset: Int, _ size: Int) throws(Malformed) -> Int {
            guard offset >= 0, offset + size <= data.count else {
                throw Malformed(reason: "it ends inside its headers (\(data.count) bytes)")
            }
            var value = 0
            for index in (0..<size).reversed() { value = value << 8 | Int(data[offset + index]) }
            return value
        }
        guard data.count >= 64, data[0] == 0x4D, data[1] == 0x5A else {
            throw Malformed(reason: "it does not start with `MZ` (no DOS header): not a Windows executable")
        }
        let header = try field(0x3C, 4)
        guard try field(header, 4) == 0x0000_4550 else {
            throw Malformed(reason: "its DOS header points at \(header), where no `PE\\0\\0` signature is")
        }
        let optionalHeaderSize = try field(header + 20, 2)
        let optional = header + 24
        let magic = try field(optional, 2)
        let directories: Int
        let directoryCount: Int
        switch magic {
        case 0x10B:
            directories = optional + 96
            directoryCount = try field(optional + 92, 4)
        case 0x20B:
            directories = optional + 112
            directoryCount = try field(optional + 108, 4)
        default:
            throw Malformed(reason: String(format: "its optional header's magic is 0x%x (neither PE32 nor PE32+)", magic))
        }
        guard directoryCount > 4, directories + 5 * 8 <= optional + optionalHeaderSize else {
            throw Malformed(reason: "its optional header has no certificate table entry")
        }
        checksumOffset = optional + 64
        certificateEntryOffset = directories + 4 * 8
        let tableOffset = try field(certificateEntryOffset, 4)
        let tableSize = try field(certificateEntryOffset + 4, 4)
        var image = data
        if tableOffset != 0 || tableSize != 0 {
            guard tableOffset >= optional + optionalHeaderSize, tableOffset + tableSize == data.count else {
                throw Malformed(
                    reason:
                        "its certificate table (\(tableSize) bytes at \(tableOffset)) is not at the end of the file (\(data.count) bytes)"
                )
            }
            image.removeSubrange(tableOffset...)
            for index in 0..<8 { image[certificateEntryOffset + index] = 0 }
        }
        image.append(contentsOf: [UInt8](repeating: 0, count: (8 - image.count % 8) % 8))
        bytes = image
    }

    /// The Authenticode digest: SHA-256 of the image without its CheckSum field, its certificate
    /// table entry and its certificate table, in file order (what osslsigncode hashes; the
    /// specification's section-by-section order gives the same bytes for a linker's output, whose
    /// sections follow the headers in order without gaps).
    package var digest: [UInt8] {
        var hasher = SHA256()
        hasher.update(data: bytes[0..<checksumOffset])
        hasher.update(data: bytes[(checksumOffset + 4)..<certificateEntryOffset])
        hasher.update(data: bytes[(certificateEntryOffset + 8)...])
        return Array(hasher.finalize())
    }

    /// The image with `signature` (DER PKCS#7 SignedData) as its one WIN_CERTIFICATE
    /// (revision 2.0, PKCS_SIGNED_DATA), padded to 8 bytes, its directory entry set and the
    /// CheckSum recomputed.
    package func signed(with signature: [UInt8]) -> [UInt8] {
        var out = bytes
        let padding = (8 - signature.count % 8) % 8
        let length = 8 + signature.count + padding
        let offset = out.count
        out.append(contentsOf: Self.littleEndian(UInt32(length)))
        out.append(contentsOf: [0x00, 0x02, 0x02, 0x00])
        out.append(contentsOf: signature)
        out.append(contentsOf: [UInt8](repeating: 0, count: padding))
        out.replaceSubrange(certificateEntryOffset..<(certificateEntryOffset + 4), with: Self.littleEndian(UInt32(offset)))
        out.replaceSubrange(
            (certificateEntryOffset + 4)..<(certificateEntryOffset + 8), with: Self.littleEndian(UInt32(length)))
        out.replaceSubrange(
            checksumOffset..<(checksumOffset + 4), with: Self.littleEndian(Self.checksum(out, checksumOffset: checksumOffset)))
        return out
    }

    /// The PE CheckSum: the file's 16-bit little-endian words summed with the carries folded
    /// back in, the CheckSum field itself read as zero, plus the file's length.
    package static func checksum(_ bytes: [UInt8], checksumOffset: Int) -> UInt32 {
        var sum: UInt64 = 0
        var index = 0
        let count = bytes.count
        bytes.withUnsafeBufferPointer { buffer in
            while index + 1 < count {
                if index != checksumOffset, index != checksumOffset + 2 {
                    sum += UInt64(buffer[index]) | UInt64(buffer[index + 1]) << 8
                    sum = (sum & 0xFFFF) + (sum >> 16)
                }
                index += 2
            }
            if index < count { sum += UInt64(buffer[index]) }
        }
        sum = (sum & 0xFFFF) + (sum >> 16)
        sum = (sum & 0xFFFF) + (sum >> 16)
        return UInt32(truncatingIfNeeded: sum + UInt64(count))
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }
}
