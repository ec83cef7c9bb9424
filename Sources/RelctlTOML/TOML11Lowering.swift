/// Rewrites what TOML 1.1 (December 2025) added into the TOML 1.0 that toml++ 3.4 reads, so a
/// Cargo.toml written for today's Cargo is read rather than refused (biome's `tokio = {` spread
/// over three lines made `relctl plan` exit 2 on the whole workspace):
///
/// - newlines, and the comments between them, inside an inline table: the table is joined onto
///   its first line and the newlines it held are written after it, at the next line end outside
///   any inline table, so every later line keeps its number in toml++'s errors;
/// - a trailing comma before an inline table's `}`;
/// - the escapes `\e` and `\xHH` in basic strings, written as the `\u` escapes they mean.
///
/// Strings are copied as they are otherwise (a multi-line string's newlines are its value's).
/// `lowered` returns nil when the text has none of these, so a TOML 1.0 error is reported as is.
enum TOML11Lowering {
    static func lowered(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var braces = 0  // inline tables open around `index`
        var pendingNewlines = 0
        var changed = false

        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func starts(_ quote: UInt8) -> Bool { at(0) == quote && at(1) == quote && at(2) == quote }
        func isHex(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
        }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                if braces > 0 {
                    // Joined: a space where the line ended, the newline kept for later.
                    if output.last == UInt8(ascii: "\r") { output.removeLast() }
                    output.append(UInt8(ascii: " "))
                    pendingNewlines += 1
                    changed = true
                } else {
                    output.append(byte)
                    output.append(contentsOf: [UInt8](repeating: UInt8(ascii: "\n"), count: pendingNewlines))
                    pendingNewlines = 0
                }
                index += 1
            case UInt8(ascii: "#"):
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if braces > 0 {
                    changed = true  // a comment inside a joined table would hide the rest of it
                } else {
                    output.append(contentsOf: bytes[index..<end])
                }
                index = end
            case UInt8(ascii: "{"):
                braces += 1
                output.append(byte)
                index += 1
            case UInt8(ascii: "}") where braces > 0:
                if let last = output.lastIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
                    output[last] == UInt8(ascii: ",")
                {
                    output.remove(at: last)
                    changed = true
                }
                braces -= 1
                output.append(byte)
                index += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = byte
                let multiLine = starts(quote)
                let width = multiLine ? 3 : 1
                output.append(contentsOf: bytes[index..<(index + width)])
                index += width
                while index < bytes.count {
                    let current = bytes[index]
                    if quote == UInt8(ascii: "\""), current == UInt8(ascii: "\\") {
                        if at(1) == UInt8(ascii: "e") {
                            output.append(contentsOf: Array("\\u001B".utf8))
                            index += 2
                            changed = true
                            continue
                        }
                        if at(1) == UInt8(ascii: "x"), isHex(at(2)), isHex(at(3)) {
                            output.append(contentsOf: Array("\\u00".utf8))
                            output.append(bytes[index + 2])
                            output.append(bytes[index + 3])
                            index += 4
                            changed = true
                            continue
                        }
                        output.append(current)
                        if let next = at(1) { output.append(next) }
                        index += 2
                        continue
                    }
                    if multiLine, starts(quote) {
                        // A multi-line string may end in up to two more quotes of its own.
                        var end = index + 3
                        while end < bytes.count, bytes[end] == quote, end - index < 5 { end += 1 }
                        output.append(contentsOf: bytes[index..<end])
                        index = end
                        break
                    }
                    if !multiLine, current == quote {
                        output.append(current)
                        index += 1
                        break
                    }
                    if current == UInt8(ascii: "\n"), !multiLine { break }  // unclosed: toml++ reports it
                    output.append(current)
                    index += 1
                }
            default:
                output.append(byte)
                index += 1
            }
        }
        guard changed else { return nil }
        output.append(contentsOf: [UInt8](repeating: UInt8(ascii: "\n"), count: pendingNewlines))
        return String(decoding: output, as: UTF8.self)
    }
}
