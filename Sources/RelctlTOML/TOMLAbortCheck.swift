/// Finds the texts toml++ 3.4 aborts the whole process on (SIGABRT from an assertion that is
/// compiled into release builds too; found by the fuzzer, issue 26) instead of reporting a
/// syntax error, and reports them as the syntax errors they are; every other text goes to
/// toml++ untouched.
///
/// - A table header without a key: `parse_table_header` hands the character after `[` (or
///   `[[`) and spaces to `parse_key`, which asserts that it starts a key (`[`, `[[[`, `[!]`, `[é]`).
///   A header starts at the beginning of a line, outside strings, comments and multi-line arrays.
/// - A `}` where an array expects a value (`[}]`, `[1, }]`): `parse_array` hands it to
///   `parse_value`, which asserts that it is not a value terminator.
enum TOMLAbortCheck {
    static func problem(in text: String) -> TOMLSyntaxError? {
        let bytes = Array(text.utf8)
        var index = 0
        var line = 1
        var open: [UInt8] = []  // the `[` and `{` of values: a header cannot start inside them
        var arrayWantsValue = false  // after an array's `[` or `,`: a `}` here aborts toml++
        var atLineStart = true

        func at(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        func starts(_ three: UInt8) -> Bool { at(0) == three && at(1) == three && at(2) == three }

        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                atLineStart = true
                index += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                continue
            case UInt8(ascii: "[") where atLineStart && open.isEmpty:
                if let problem = header(bytes, from: index, line: line) { return problem }
                // The rest of a header line is keys, quoted ones included: skip it whole.
                index = endOfLine(bytes, from: index)
                continue
            case UInt8(ascii: "#"):
                index = endOfLine(bytes, from: index)
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let multiLine = starts(byte)
                index += multiLine ? 3 : 1
                while index < bytes.count {
                    if byte == UInt8(ascii: "\""), bytes[index] == UInt8(ascii: "\\") {
                        if at(1) == UInt8(ascii: "\n") { line += 1 }  // a line-ending backslash
                        index += 2
                        continue
                    }
                    if multiLine ? starts(byte) : bytes[index] == byte {
                        index += multiLine ? 3 : 1
                        break
                    }
                    if bytes[index] == UInt8(ascii: "\n") {
                        line += 1
                        if !multiLine { break }  // an unclosed string ends at its line, for toml++ too
                    }
                    index += 1
                }
            case UInt8(ascii: "}") where arrayWantsValue:
                return TOMLSyntaxError(
                    line: line, message: "Error while parsing array: expected a value or closing ']', saw '}'")
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                open.append(byte)
                index += 1
                atLineStart = false
                arrayWantsValue = byte == UInt8(ascii: "[")
                continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                _ = open.popLast()
                index += 1
            case UInt8(ascii: ",") where open.last == UInt8(ascii: "["):
                index += 1
                atLineStart = false
                arrayWantsValue = true
                continue
            default:
                index += 1
            }
            atLineStart = false
            arrayWantsValue = false
        }
        return nil
    }

    /// The problem with the header at `start`, if the character after its brackets cannot begin a key.
    private static func header(_ bytes: [UInt8], from start: Int, line: Int) -> TOMLSyntaxError? {
        var index = start + 1
        func skipSpaces() -> Bool {
            let before = index
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
            return index > before
        }
        let spaced = skipSpaces()
        if !spaced, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
            index += 1
            _ = skipSpaces()
        }
        guard index < bytes.count else { return nil }  // toml++ reports the end of file itself
        let byte = bytes[index]
        let startsKey =
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "]")].contains(byte)
        guard !startsKey else { return nil }
        let rest = String(decoding: bytes[index..<endOfLine(bytes, from: index)], as: UTF8.self)
        let shown =
            byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
            ? "the end of the line" : rest.first.map { "`\($0)`" } ?? "the end of the line"
        return TOMLSyntaxError(
            line: line,
            message:
                "Error while parsing table header: expected a key (letters, digits, `_`, `-`, or a quoted key) after `[`, saw \(shown)"
        )
    }

    private static func endOfLine(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
        return index
    }
}
