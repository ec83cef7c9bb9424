/// Literals for generated PowerShell (the Windows installer, GitLab CI script lines on Windows
/// runners). Values go into verbatim (single-quoted) strings, where nothing expands and the only
/// special characters are the quotes: PowerShell's tokenizer takes `'` and U+2018–U+201B alike
/// as a single quote (about_Quoting_Rules), and inside such a string two of them in a row stand
/// for one. Doubling only the ASCII quote, as round 3 did, let a value end the string with a
/// U+2019 (issue 39, finding 4). Control characters other than tab and line breaks, and NUL, are
/// refused: a script holding them is not text a reviewer can read.
package enum PowerShellEmitter {
    /// Every character PowerShell reads as a single quote.
    package static let singleQuotes: Set<Unicode.Scalar> = ["'", "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}"]

    /// `'…'` holding exactly `text`.
    package static func quoted(_ text: String, what: String = "a value") throws -> String {
        var out = "'"
        for scalar in text.unicodeScalars {
            if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r" || scalar.value == 0x7F {
                throw EmitterError.unrepresentable(language: "PowerShell", what: what, character: scalar)
            }
            out.unicodeScalars.append(scalar)
            if singleQuotes.contains(scalar) { out.unicodeScalars.append(scalar) }
        }
        return out + "'"
    }

    /// `$env:NAME = '…'`.
    package static func environmentAssignment(_ name: String, _ value: String, what: String? = nil) throws -> String {
        try checkName(name)
        return "$env:\(name) = " + (try quoted(value, what: what ?? "the value of \(name)"))
    }

    /// `$env:NAME = $env:OTHER`.
    package static func environmentAssignment(_ name: String, fromVariable other: String) throws -> String {
        try checkName(name)
        try checkName(other)
        return "$env:\(name) = $env:\(other)"
    }

    /// Text for a `#` comment: no line break of any kind and no control character.
    package static func comment(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter {
                    $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) && $0 != "\u{2028}" && $0 != "\u{2029}"
                }))
    }

    private static func checkName(_ name: String) throws {
        guard ShellEmitter.isName(name) else {
            throw EmitterError.invalidName(
                language: "PowerShell", what: "the variable name", name: name,
                rule: "letters, digits and `_`, not starting with a digit")
        }
    }
}
