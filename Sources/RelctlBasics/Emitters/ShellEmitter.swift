/// Words for generated POSIX sh (the installer, CI script lines), also read unchanged by bash
/// (a PKGBUILD is bash): every value relctl did not write is single-quoted, where no character
/// but the quote itself is special; an embedded `'` closes the quote, is escaped, and reopens it.
/// A shell word cannot hold a NUL byte (it would end the C string the shell passes on), so a NUL
/// is refused.
package enum ShellEmitter {
    /// `'…'` holding exactly `text` (line breaks included).
    package static func quoted(_ text: String, what: String = "a value") throws -> String {
        if text.unicodeScalars.contains("\0") {
            throw EmitterError.unrepresentable(language: "shell script", what: what, character: "\0")
        }
        return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The word bare when sh reads it back unchanged in any position (no expansion, no glob, no
    /// assignment, no option-like `-` start), else `quoted`.
    package static func word(_ text: String, what: String = "a value") throws -> String {
        let bare = text.unicodeScalars.allSatisfy { scalar in
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "_./:@%+,-".unicodeScalars.contains(scalar)
        }
        return !text.isEmpty && bare && !text.hasPrefix("-") ? text : try quoted(text, what: what)
    }

    /// `NAME='value'`: the name is checked, the value quoted.
    package static func assignment(_ name: String, _ value: String, what: String? = nil) throws -> String {
        try checkName(name, what: what ?? "the variable name")
        return name + "=" + (try quoted(value, what: what ?? "the value of \(name)"))
    }

    /// `export NAME='value'`.
    package static func export(_ name: String, _ value: String, what: String? = nil) throws -> String {
        "export " + (try assignment(name, value, what: what))
    }

    /// `export NAME="$OTHER"`: one variable set from another (both names checked).
    package static func export(_ name: String, fromVariable other: String) throws -> String {
        try checkName(name, what: "the variable name")
        try checkName(other, what: "the variable name")
        return "export \(name)=\"$\(other)\""
    }

    /// Text for a `#` comment: a line break (or any other control character) would end the
    /// comment and start a command, so they are dropped.
    package static func comment(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    /// A shell variable name: `[A-Za-z_][A-Za-z0-9_]*`.
    package static func isName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
        }
    }

    private static func checkName(_ name: String, what: String) throws {
        guard isName(name) else {
            throw EmitterError.invalidName(
                language: "shell script", what: what, name: name,
                rule: "letters, digits and `_`, not starting with a digit")
        }
    }
}
