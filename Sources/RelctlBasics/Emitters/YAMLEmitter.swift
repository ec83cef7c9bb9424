/// Scalars for generated YAML (CI workflows, pipelines, winget manifests), read the same by a
/// YAML 1.1 reader (PyYAML, GitLab's Psych, go-yaml v2) and a YAML 1.2 reader (ruamel, Yams,
/// GitHub's parser). A value is written plain only when both read it back as that very string;
/// otherwise single-quoted; double-quoted with escapes when it holds a character a single-quoted
/// scalar cannot carry (a control character, a line break, NEL, U+2028/U+2029, a BOM).
///
/// The plain rule is deliberately narrower than either specification: YAML 1.1 reads `12:30` as
/// the number 750, `<<` as a merge key, `=` as a value key, `yes`/`on`/`y` as booleans, `0755`
/// as octal and `1_000` as a thousand, where YAML 1.2 reads strings; anything starting like a
/// number, and every word either version resolves, is quoted.
package enum YAMLEmitter {
    /// YAML forbids implicit (unquoted-`?`) keys longer than this.
    package static let maximumKeyLength = 1024

    /// Any text as one scalar on one line.
    package static func scalar(_ text: String) -> String {
        if isPlainSafe(text) { return text }
        return singleQuotable(text) ? singleQuoted(text) : doubleQuoted(text)
    }

    /// Any text, always quoted (for values a reader should see as quoted text, e.g. a version).
    package static func quoted(_ text: String) -> String {
        singleQuotable(text) ? singleQuoted(text) : doubleQuoted(text)
    }

    /// A mapping key: a scalar within YAML's 1024-character limit for implicit keys.
    package static func key(_ text: String, what: String) throws -> String {
        let written = scalar(text)
        guard written.unicodeScalars.count <= maximumKeyLength else {
            throw EmitterError.tooLong(
                language: "YAML", what: what, length: text.unicodeScalars.count, limit: maximumKeyLength - 2)
        }
        return written
    }

    /// `'…'`: nothing is special inside but the quote, which is doubled. Only for text
    /// `singleQuotable` accepts (a line break would be folded into a space).
    package static func singleQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `"…"` with escapes: `\\`, `\"`, `\n`, `\t`, `\r`, `\0`, and `\uXXXX`/`\UXXXXXXXX` for every
    /// other character outside the printable set both versions share. Holds any text.
    package static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            case _ where isPrintable(scalar): out.unicodeScalars.append(scalar)
            case _ where scalar.value <= 0xFFFF: out += "\\u" + hex(scalar.value, width: 4)
            default: out += "\\U" + hex(scalar.value, width: 8)
            }
        }
        return out + "\""
    }

    /// The lines of a literal block scalar (`|`, `|-` or `|+`, with an indentation indicator
    /// when the first line starts with a blank) holding exactly `text`, for a node whose parent
    /// (the `-` of a sequence entry, or the mapping key) stands at column `parentColumn`: each
    /// line is indented two more. The indicator goes after the key or `- `. Nil when a block
    /// cannot hold the text (a character only a double-quoted scalar can carry, or no line at
    /// all): use `scalar` then.
    package static func literalBlock(_ text: String, parentColumn: Int) -> (indicator: String, lines: [String])? {
        let indent = parentColumn + 2
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0 == "\n" || $0 == "\t" || isPrintable($0) })
        else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var chomping = "-"
        if lines.last == "" {
            lines.removeLast()
            chomping = lines.last == "" ? "+" : ""
        }
        guard !lines.isEmpty, lines.contains(where: { !$0.isEmpty }) || chomping == "+" else { return nil }
        // A block's indentation is taken from its first non-empty line unless given; a first line
        // starting with a blank, or an all-blank line before it, needs it given.
        let firstContent = lines.first { !$0.allSatisfy { $0 == " " } } ?? ""
        let leadingBlank = lines.prefix { $0.allSatisfy { $0 == " " } }.contains { !$0.isEmpty }
        let needsIndicator = firstContent.first == " " || firstContent.first == "\t" || leadingBlank
        let margin = String(repeating: " ", count: indent)
        // The indicator counts from the parent's column, not from the line's start.
        let indicator = "|" + (needsIndicator ? "2" : "") + chomping
        return (indicator, lines.map { $0.isEmpty ? "" : margin + $0 })
    }

    /// True when both YAML versions read `text`, written bare in block context, as this string.
    package static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        // Printable ASCII only: no line break of either version, no BOM, no NEL.
        guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "-?:,[]{}#&*!|>'\"%@`<=~.+0123456789".unicodeScalars.contains(first) { return false }
        if text.contains(": ") || text.contains(" #") { return false }
        return !resolvedWords.contains(text.lowercased())
    }

    /// Words YAML 1.1 or 1.2 resolve to a boolean or null (case-insensitive: 1.1 accepts
    /// `Yes`/`YES`, and quoting a few more spellings than needed costs nothing).
    static let resolvedWords: Set<String> = [
        "y", "n", "yes", "no", "true", "false", "on", "off", "null",
    ]

    /// A single-quoted scalar holds this text unchanged.
    package static func singleQuotable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isPrintable)
    }

    /// Printable in both versions and never a line break or byte-order mark: tab excluded (a
    /// reader may fold it at a line end), as are NEL, U+2028 and U+2029 (line breaks in 1.1).
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: true
        case 0xA0...0xD7FF: scalar.value != 0x2028 && scalar.value != 0x2029
        case 0xE000...0xFFFD: scalar.value != 0xFEFF
        case 0x10000...0x10FFFF: true
        default: false
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
