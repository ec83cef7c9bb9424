import Crypto

/// A SHA-256 digest as four words: 32 bytes inline instead of a 64-character hex string on the
/// heap (about 112 bytes with its header). Lists that hold one digest per file (an SBOM of
/// 100,000 files, `checksum` over 100,000 archives) keep these (issue 31).
package struct SHA256Bytes: Sendable, Hashable {
    private var a: UInt64 = 0, b: UInt64 = 0, c: UInt64 = 0, d: UInt64 = 0

    package init(_ digest: SHA256.Digest) {
        digest.withUnsafeBytes { raw in
            func word(_ at: Int) -> UInt64 {
                var value: UInt64 = 0
                for offset in 0..<8 { value = value << 8 | UInt64(raw[at + offset]) }
                return value
            }
            (a, b, c, d) = (word(0), word(8), word(16), word(24))
        }
    }

    /// From hex, either case; what does not parse counts as zero (for text already checked, or tests).
    package init(hex: String) {
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, unit) in hex.utf8.prefix(64).enumerated() {
            words[index / 16] |= UInt64(Self.nibble(unit) ?? 0) << (60 - 4 * UInt64(index % 16))
        }
        (a, b, c, d) = (words[0], words[1], words[2], words[3])
    }

    /// Only for exactly 64 lowercase hex digits, so `hex` gives the same text back.
    package init?(canonicalHex text: String) {
        guard text.utf8.count == 64,
            text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
        else { return nil }
        self.init(hex: text)
    }

    private static func nibble(_ unit: UInt8) -> UInt8? {
        switch unit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return unit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return unit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return unit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// Lowercase hex.
    package var hex: String {
        String(unsafeUninitializedCapacity: 64) { out in
            var index = 0
            for word in [a, b, c, d] {
                for shift in stride(from: 60, through: 0, by: -4) {
                    out[index] = Self.digits[Int((word >> UInt64(shift)) & 0xF)]
                    index += 1
                }
            }
            return 64
        }
    }
}

/// A lowercase hex digest as a value keeps it: a SHA-256 inline, anything else (a SHA-512, or
/// text read from a file that is not a canonical digest) as the text itself. `text` always gives
/// back exactly what was stored.
package struct StoredHex: Sendable, Hashable {
    private enum Storage: Sendable, Hashable {
        case sha256(SHA256Bytes)
        case text(String)
    }

    private var storage: Storage

    package init(_ text: String) {
        storage = SHA256Bytes(canonicalHex: text).map(Storage.sha256) ?? .text(text)
    }

    package init(_ digest: SHA256Bytes) {
        storage = .sha256(digest)
    }

    /// The digest inline, when it is a canonical SHA-256.
    package var sha256: SHA256Bytes? {
        if case .sha256(let bytes) = storage { return bytes }
        return nil
    }

    package var text: String {
        switch storage {
        case .sha256(let bytes): return bytes.hex
        case .text(let text): return text
        }
    }
}
