import RelctlBasics

/// Fills `@NAME@` placeholders in one pass over the template: a value is pasted once and never
/// searched again, so a value that itself holds `@COMMENT_PROJECT@` (or any other placeholder)
/// stays text. Replacing placeholders one after another would find later ones inside values
/// already pasted, outside their quotes.
package struct PlaceholderTemplate: Sendable {
    package var text: String

    package init(_ text: String) {
        self.text = text
    }

    /// - Parameters:
    ///   - values: by placeholder name (`PROJECT` for `@PROJECT@`), already quoted for the target language.
    ///   - lines: placeholders that stand on a line of their own: the line break after one is
    ///     dropped, the value brings its own.
    package func filled(_ values: [String: String], lines: Set<String> = []) -> String {
        var result = ""
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            result += rest[..<at]
            let afterAt = rest.index(after: at)
            let name = rest[afterAt...].prefix { $0 == "_" || ("A"..."Z").contains($0) }
            let close = name.endIndex
            guard !name.isEmpty, close < rest.endIndex, rest[close] == "@", let value = values[String(name)] else {
                result += "@"
                rest = rest[afterAt...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
            if lines.contains(String(name)), rest.first == "\n" { rest = rest.dropFirst() }
        }
        return result + rest
    }
}
