import RelctlBasics

/// A YAML document written line by line. Every scalar goes through `YAMLEmitter` (these helpers
/// only name the forms the workflows use); the structure (keys, indentation) is relctl's own text.
package struct YAMLLines {
    package private(set) var lines: [String] = []

    package mutating func add(_ line: String) { lines.append(line) }
    package mutating func blank() { lines.append("") }
    package var text: String { lines.joined(separator: "\n") + "\n" }

    /// Always quoted, unless it is a `${{ }}` expression relctl wrote that reads back plain.
    package static func quote(_ text: String) -> String {
        if text.hasPrefix("${{"), text.hasSuffix("}}"), YAMLEmitter.isPlainSafe(text) { return text }
        return YAMLEmitter.quoted(text)
    }

    /// Plain when YAML 1.1 and 1.2 both read it back unchanged, else quoted.
    package static func plainOrQuoted(_ text: String) -> String { YAMLEmitter.scalar(text) }

    /// Any text as one quoted scalar (a `${{ }}` expression as `quote` leaves it).
    package static func scalar(_ text: String) -> String { quote(text) }
}
