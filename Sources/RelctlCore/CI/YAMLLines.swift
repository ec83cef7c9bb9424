/// A YAML document written line by line; only the few scalar forms the workflow needs.
struct YAMLLines {
    private(set) var lines: [String] = []

    mutating func add(_ line: String) { lines.append(line) }
    mutating func blank() { lines.append("") }
    var text: String { lines.joined(separator: "\n") + "\n" }

    /// A single-quoted scalar (no escapes inside except a doubled quote), unless it is a `${{ }}` expression.
    static func quote(_ text: String) -> String {
        if text.hasPrefix("${{"), text.hasSuffix("}}") { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// Plain when YAML reads it back unchanged, else single-quoted.
    static func plainOrQuoted(_ text: String) -> String {
        let risky = text.first.map { "!&*-?[]{}|>'\"%@`#,:".contains($0) } ?? true
        return risky || text.contains(" #") || text.hasSuffix(":") ? quote(text) : text
    }
}
