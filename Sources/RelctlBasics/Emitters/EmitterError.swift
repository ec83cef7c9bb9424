/// A value one of the emitters cannot write in its language: bad input (exit 2) naming what the
/// value is, so the user knows which key to change.
package enum EmitterError: RelctlError, CustomStringConvertible, Equatable {
    /// The language has no way to hold `character` (a NUL in a shell word, a line break in a
    /// comment that must stay one line).
    case unrepresentable(language: String, what: String, character: Unicode.Scalar)
    /// Not a name the language accepts where the emitter puts it (a variable or class name).
    case invalidName(language: String, what: String, name: String, rule: String)
    /// Longer than the language (or its common readers) accepts in that place.
    case tooLong(language: String, what: String, length: Int, limit: Int)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .unrepresentable(language, what, character):
            let code = "U+" + String(character.value, radix: 16, uppercase: true).leftPadded(to: 4)
            return [
                Diagnostic(
                    "\(what) holds the character \(code), which relctl cannot write into generated \(language); remove it"
                )
            ]
        case let .invalidName(language, what, name, rule):
            return [
                Diagnostic(
                    "\(what) \(QuotedString.basic(name)) is not a name relctl can write into generated \(language) (\(rule)); choose another"
                )
            ]
        case let .tooLong(language, what, length, limit):
            return [
                Diagnostic(
                    "\(what) is \(length) characters long; generated \(language) holds at most \(limit) there: shorten it"
                )
            ]
        }
    }

    package var description: String { message }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
