/// Ruby for generated Homebrew formulae: string literals and the formula's class name.
///
/// Strings are double-quoted with every character that starts an escape or interpolation
/// escaped (`\`, `"`, `#`), and control characters written as escapes, so the literal is one
/// line and evaluates to exactly the value. The class name is never the project name pasted:
/// a name such as `x < Formula; system("…"); class Y` would be Ruby that runs when brew loads
/// the formula (issue 39, finding 1). It is derived the way Homebrew derives it
/// (`Formulary.class_s`: `foo-bar@2` → `FooBarAT2`) from a name that is first checked against
/// Homebrew's formula-name characters.
package enum RubyEmitter {
    /// `"…"` evaluating to exactly `text`.
    package static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "#": out += "\\#"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}"
                || scalar == "\u{2029}" || scalar == "\u{FEFF}":
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Homebrew's class name for the formula `name`, which must be a formula name: a letter or
    /// digit, then letters, digits and `+ . _ @ -`.
    package static func className(formula name: String, what: String = "the formula name") throws -> String {
        let isFormulaName =
            name.unicodeScalars.first.map(isAlphanumeric) == true
            && name.unicodeScalars.allSatisfy { isAlphanumeric($0) || "+._@-".unicodeScalars.contains($0) }
        guard isFormulaName, name.count <= 128 else {
            throw EmitterError.invalidName(
                language: "Ruby (Homebrew formula)", what: what, name: name,
                rule: "ASCII letters, digits and `+ . _ @ -`, starting with a letter or digit, at most 128")
        }
        // class_s: capitalize, upcase the character after `-`, `_`, `.` or a space, `+` → `x`,
        // and the first `@` followed by a digit → `AT`.
        var characters = Array(name.prefix(1).uppercased() + name.dropFirst().lowercased())
        var index = 1
        while index < characters.count {
            if "-_.".contains(characters[index - 1]), characters[index].isLetter || characters[index].isNumber {
                characters[index] = Character(characters[index].uppercased())
                characters.remove(at: index - 1)
                continue
            }
            index += 1
        }
        var result = String(characters).replacingOccurrences(of: "+", with: "x")
        if let at = result.firstIndex(of: "@"), at > result.startIndex,
            result.index(after: at) < result.endIndex, result[result.index(after: at)].isNumber
        {
            result.replaceSubrange(at...at, with: "AT")
        }
        // Whatever the derivation leaves must be a Ruby constant, or brew could not load it either.
        guard let first = result.unicodeScalars.first, ("A"..."Z").contains(first),
            result.unicodeScalars.allSatisfy({ isAlphanumeric($0) || $0 == "_" })
        else {
            throw EmitterError.invalidName(
                language: "Ruby (Homebrew formula)", what: what, name: name,
                rule:
                    "Homebrew's class name for it, \(result), is not a Ruby constant; use letters and digits between `-`"
            )
        }
        return result
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
