/// PowerShell's verbatim (single-quoted) string, read by its documented grammar because pwsh is
/// not installable on these machines (it ships through NuGet and Microsoft's feeds, which the
/// workplace cannot reach). From about_Quoting_Rules and the tokenizer's quote classes: such a
/// string starts and ends at any of `'` and U+2018–U+201B, two of them in a row stand for one,
/// and nothing else in it is special (no escape, no expansion).
public enum PowerShellGrammar {
    public static let singleQuotes: Set<Unicode.Scalar> = ["'", "\u{2018}", "\u{2019}", "\u{201A}", "\u{201B}"]

    /// The string at the start of `text`: its value and what follows it, or nil when `text` does
    /// not start with one or it never ends.
    public static func verbatimString(_ text: Substring) -> (String, Substring)? {
        var scalars = text.unicodeScalars[...]
        guard let first = scalars.first, singleQuotes.contains(first) else { return nil }
        scalars = scalars.dropFirst()
        var value = String.UnicodeScalarView()
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            if singleQuotes.contains(scalar) {
                if let next = scalars.first, singleQuotes.contains(next) {
                    value.append(scalar)
                    scalars = scalars.dropFirst()
                    continue
                }
                return (String(value), Substring(scalars))
            }
            value.append(scalar)
        }
        return nil
    }
}
