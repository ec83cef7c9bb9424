/// Nix string literals for generated flakes. A double-quoted Nix string interpolates `${…}` and
/// ends at `"`; `\` escapes the next character (`\n`, `\r`, `\t` are the only named escapes).
/// Every `\`, `"` and the `$` of a `${` is escaped, line breaks become escapes. Nix strings are
/// C strings inside the evaluator: a NUL cannot be held and is refused.
package enum NixEmitter {
    /// `"…"` evaluating to exactly `text`.
    package static func string(_ text: String, what: String = "a value") throws -> String {
        var out = "\""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\0": throw EmitterError.unrepresentable(language: "Nix", what: what, character: scalar)
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "$" where index + 1 < scalars.count && scalars[index + 1] == "{": out += "\\$"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An attribute name: bare when Nix reads it as an identifier, else a quoted string.
    package static func attributeName(_ text: String, what: String = "an attribute name") throws -> String {
        let keywords: Set<String> = ["if", "then", "else", "assert", "with", "let", "in", "rec", "inherit", "or"]
        let isIdentifier =
            text.unicodeScalars.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_" } == true
            && text.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                    || "_'-".unicodeScalars.contains($0)
            } && !keywords.contains(text)
        return isIdentifier ? text : try string(text, what: what)
    }
}
