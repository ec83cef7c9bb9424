/// A commit's full name as git prints it, held inline: up to 64 lowercase hex digits (SHA-1's 40
/// and SHA-256's 64) packed four bits each. As a `String`, 40 digits are a heap object of their
/// own; release notes over 100,000 commits held 7.9 MB of them (issue 31). Any other text is kept
/// as given, so nothing a caller passes is lost.
package struct CommitName: Hashable, Comparable, Sendable, CustomStringConvertible {
    private enum Storage: Hashable, Sendable {
        /// Digits left to right from the top nibble of the first word; unused nibbles are zero.
        case hex(SIMD4<UInt64>, digits: UInt8)
        case text(String)
    }

    private var storage: Storage

    package init(_ text: String) {
        storage = Self.pack(text).map { .hex($0.words, digits: $0.digits) } ?? .text(text)
    }

    package var description: String {
        switch storage {
        case .text(let text): return text
        case .hex(let words, let digits):
            return String(unsafeUninitializedCapacity: Int(digits)) { buffer in
                for index in 0..<Int(digits) {
                    let nibble = UInt8(truncatingIfNeeded: words[index / 16] >> UInt64(60 - 4 * (index % 16))) & 0xf
                    buffer[index] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
                }
                return Int(digits)
            }
        }
    }

    /// Whether the name starts with `prefix`, as `String.hasPrefix` would answer.
    package func hasPrefix(_ prefix: String) -> Bool {
        guard case .hex(let words, let digits) = storage else {
            if case .text(let text) = storage { return text.hasPrefix(prefix) }
            return false
        }
        guard let wanted = Self.pack(prefix) else { return false }
        guard wanted.digits <= digits else { return false }
        var remaining = Int(wanted.digits)
        for index in 0..<4 where remaining > 0 {
            let bits = UInt64(min(remaining, 16) * 4)
            let mask: UInt64 = bits == 64 ? ~0 : ~(~0 >> bits)
            if words[index] & mask != wanted.words[index] { return false }
            remaining -= 16
        }
        return true
    }

    /// Text order, as `String` orders these ASCII names.
    package static func < (lhs: CommitName, rhs: CommitName) -> Bool {
        guard case .hex(let a, let aDigits) = lhs.storage, case .hex(let b, let bDigits) = rhs.storage else {
            return lhs.description < rhs.description
        }
        for index in 0..<4 where a[index] != b[index] { return a[index] < b[index] }
        // Unused nibbles are zero like the digit "0": a name that is a prefix of the other sorts first.
        return aDigits < bDigits
    }

    private static func pack(_ text: String) -> (words: SIMD4<UInt64>, digits: UInt8)? {
        var words = SIMD4<UInt64>()
        var count = 0
        for byte in text.utf8 {
            guard count < 64 else { return nil }
            let nibble: UInt8
            switch byte {
            case 0x30...0x39: nibble = byte - 0x30
            case 0x61...0x66: nibble = byte - 0x57
            default: return nil
            }
            words[count / 16] |= UInt64(nibble) << UInt64(60 - 4 * (count % 16))
            count += 1
        }
        return (words, UInt8(count))
    }
}
