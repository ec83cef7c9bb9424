/// Values for generated XML 1.0 (the WiX source of an MSI): character data and attribute values,
/// escaped. `&`, `<`, `>`, `"` and `'` become entity references; tab, line feed and carriage
/// return become character references (an attribute value's own would be normalised to blanks by
/// any reader); every other control character, a lone surrogate's stand-in and U+FFFE/U+FFFF,
/// which XML 1.0 cannot hold at all, are refused (exit 2) naming `what`.
package enum XMLEmitter {
    /// An attribute value, without the quotes around it (the caller writes `"…"`).
    package static func attribute(_ value: String, what: String) throws -> String {
        try escaped(value, what: what)
    }

    /// Character data between tags.
    package static func text(_ value: String, what: String) throws -> String {
        try escaped(value, what: what)
    }

    private static func escaped(_ value: String, what: String) throws -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                throw EmitterError.unrepresentable(language: "XML", what: what, character: scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
