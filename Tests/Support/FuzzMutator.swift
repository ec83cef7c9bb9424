import Foundation

/// Turns a seed input into a hostile one: the mutations of a byte-level fuzzer (flips, cuts,
/// splices) plus the shapes that broke parsers before: huge numbers, deep nesting, invalid
/// UTF-8, NUL, CRLF, very long lines, duplicated fields.
package enum FuzzMutator {
    /// The largest input a mutation may grow to: the budget that bounds each input's work, so a
    /// run can never hang on one by size alone.
    package static let maximumSize = 96 * 1024

    static let interestingBytes: [UInt8] = [
        0, 0x7f, 0xff, 0x0a, 0x0d, 0x09, 0x20, 0x22, 0x27, 0x5c, 0x5b, 0x5d, 0x7b, 0x7d, 0x3d, 0x2e, 0x2d, 0x2b, 0x23,
        0x3a, 0x2c, 0x30, 0x39, 0xc3, 0x80, 0xed, 0xf0,
    ]

    static let tokens: [[UInt8]] = [
        "\r\n", "\0", "\n\n", "99999999999999999999999999999999", "18446744073709551616", "9223372036854775807",
        "-1", "-0", "1e309", "1e-400", "NaN", "inf", "0x", "00000001", "[[", "]]", "{", "}", "[", "]", "\"", "'''",
        "\"\"\"", "\\u0000", "\\uD800", "\\", "${{ github.event }}", "\u{202E}", "\u{FEFF}", "..", "../", "/", "=",
        ":", "#", "- ", "+", "v", "*", "sha256:", "=\"", ",", "null", "true", "[]", "{}", "\t",
    ].map { Array($0.utf8) } + [[0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff, 0xfe], [0xe2, 0x82], [0xf4, 0x90, 0x80, 0x80]]

    /// One to four mutations of `input`; `others` are the target's seeds, for splicing.
    package static func mutate(_ input: [UInt8], others: [[UInt8]], random: inout FuzzRandom) -> [UInt8] {
        var bytes = input
        for _ in 0...random.below(4) {
            bytes = once(bytes, others: others, random: &random)
            if bytes.count > maximumSize { bytes.removeLast(bytes.count - maximumSize) }
        }
        return bytes
    }

    private static func once(_ input: [UInt8], others: [[UInt8]], random: inout FuzzRandom) -> [UInt8] {
        var bytes = input
        let at = random.below(bytes.count + 1)
        switch random.below(14) {
        case 0 where !bytes.isEmpty:  // flip a bit
            let index = random.below(bytes.count)
            bytes[index] ^= UInt8(1) << UInt8(random.below(8))
        case 1 where !bytes.isEmpty:  // an interesting byte in place
            bytes[random.below(bytes.count)] = interestingBytes[random.below(interestingBytes.count)]
        case 2:  // an interesting token inserted
            bytes.insert(contentsOf: tokens[random.below(tokens.count)], at: at)
        case 3 where !bytes.isEmpty:  // a range removed
            let length = 1 + random.below(min(bytes.count - at + 1, 64))
            bytes.removeSubrange(min(at, bytes.count - 1)..<min(at + length, bytes.count))
        case 4:  // truncated
            bytes.removeSubrange(at..<bytes.count)
        case 5:  // a line duplicated (a key given twice, an entry listed twice)
            let lines = split(bytes)
            guard !lines.isEmpty else { break }
            var copy = lines
            let line = random.below(lines.count)
            copy.insert(lines[line], at: random.below(lines.count + 1))
            bytes = join(copy)
        case 6:  // a very long line: a chunk repeated
            let start = random.below(bytes.count + 1)
            let chunk = Array(bytes[start..<min(bytes.count, start + 1 + random.below(16))])
            let piece = chunk.isEmpty ? Array("a".utf8) : chunk
            let times = 256 + random.below(8192)
            bytes.insert(contentsOf: Array(repeating: piece, count: times).joined(), at: at)
        case 7:  // deep nesting
            let depth = 64 + random.below(20_000)
            let (open, close): (String, String) = [("[", "]"), ("{", "}"), ("{\"a\":", "}"), ("a=[", "]"), ("(", ")"),
                                                   ("{{#a}}", "{{/a}}")][random.below(6)]
            let opening = Array(String(repeating: open, count: depth).utf8)
            let closing = random.chance(2) ? Array(String(repeating: close, count: depth).utf8) : []
            bytes.insert(contentsOf: opening + closing, at: at)
        case 8 where !others.isEmpty:  // spliced with another seed
            let other = others[random.below(others.count)]
            let from = random.below(other.count + 1)
            bytes = Array(bytes[..<at]) + Array(other[from...])
        case 9:  // two lines swapped
            var lines = split(bytes)
            guard lines.count > 1 else { break }
            lines.swapAt(random.below(lines.count), random.below(lines.count))
            bytes = join(lines)
        case 10:  // a run of digits made huge
            guard let digit = bytes.indices.dropFirst(at).first(where: { (0x30...0x39).contains(bytes[$0]) })
            else { break }
            bytes.insert(contentsOf: Array(repeating: UInt8(0x39), count: 1 + random.below(40)), at: digit)
        case 11:  // every line ending CRLF
            bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case 12:  // random bytes
            bytes.insert(contentsOf: (0..<(1 + random.below(16))).map { _ in UInt8(truncatingIfNeeded: random.next()) },
                         at: at)
        default:  // a byte inserted: NUL, control or a lone UTF-8 lead byte
            bytes.insert(interestingBytes[random.below(interestingBytes.count)], at: at)
        }
        return bytes
    }

    private static func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0a, omittingEmptySubsequences: false)
    }

    private static func join(_ lines: [ArraySlice<UInt8>]) -> [UInt8] {
        Array(lines.joined(separator: [0x0a]))
    }
}
