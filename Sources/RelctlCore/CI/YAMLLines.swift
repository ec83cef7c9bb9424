import RelctlBasics

/// A YAML document written line by line; only the few scalar forms the workflow needs.
package struct YAMLLines {
    package private(set) var lines: [String] = []

    package mutating func add(_ line: String) { lines.append(line) }
    package mutating func blank() { lines.append("") }
    package var text: String { lines.joined(separator: "\n") + "\n" }

    /// A single-quoted scalar (no escapes inside except a doubled quote), unless it is a `${{ }}` expression.
    package static func quote(_ text: String) -> String {
        if text.hasPrefix("${{"), text.hasSuffix("}}") { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Plain when YAML reads it back unchanged, else single-quoted.
    package static func plainOrQuoted(_ text: String) -> String {
        let risky = text.first.map { "!&*-?[]{}|>'\"%@`#,: ".contains($0) } ?? true
        // Words YAML reads as something other than a string (`true`, `null`, `1.0`) stay text.
        let special =
            ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"].contains(text.lowercased())
            || Double(text) != nil || Int(text) != nil
        return risky || special || text.contains(" #") || text.contains(": ") || text.hasSuffix(":")
            || text.hasSuffix(" ") || text.contains("\t") || !isPrintable(text) ? scalar(text) : text
    }

    /// Any text as one scalar: single-quoted, or double-quoted with escapes when it holds line
    /// breaks or other characters a single-quoted scalar would fold or cannot carry.
    package static func scalar(_ text: String) -> String {
        isPrintable(text) ? quote(text) : QuotedString.basic(text)
    }

    package static func isPrintable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
    }
}
