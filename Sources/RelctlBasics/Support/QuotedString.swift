import Foundation

/// A double-quoted string literal whose escapes both JSON and TOML basic strings accept
/// (`\"`, `\\`, `\n`, `\t`, `\r`, `\uXXXX` for other control characters): matrix output and
/// the starter relctl.toml both quote names that may hold anything.
package enum QuotedString {
    package static func basic(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += String(format: "\\u%04X", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
