/// Escapes text for inline Markdown so a commit subject renders as written: `*`, `_`, `[`, `<`…
/// lose their meaning, while balanced code spans (`` `x_y` ``) are kept, since their content is literal anyway.
public enum MarkdownEscaper {
    static let special: Set<Character> = ["\\", "*", "_", "[", "]", "<", ">", "|", "~", "&", "!"]

    public static func escape(_ text: String) -> String {
        let characters = Array(text)
        var output = ""
        output.reserveCapacity(text.utf8.count + 8)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "`" {
                var run = 0
                while index + run < characters.count, characters[index + run] == "`" { run += 1 }
                if let close = closingRun(of: run, in: characters, from: index + run) {
                    output += String(characters[index..<(close + run)])
                    index = close + run
                } else {
                    output += String(repeating: "\\`", count: run)
                    index += run
                }
                continue
            }
            if special.contains(character) { output.append("\\") }
            output.append(character)
            index += 1
        }
        return output
    }

    /// Makes text that opens a list item, already escaped with `escape`, stay inline: at the start
    /// of a line `#`, `-`, `+`, `=` and `10.` would open a heading, a nested list or a rule, and
    /// leading blanks an indented code block. Subjects such as `- fixing tests` or
    /// `# Modernize SQL` render as written.
    public static func escapeBlockStart(_ escaped: String) -> String {
        let text = escaped.drop { $0 == " " || $0 == "\t" }
        guard let first = text.first else { return String(text) }
        if "#-+=".contains(first) { return "\\" + text }
        // An ordered-list marker: at most nine digits, then `.` or `)`.
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        if !digits.isEmpty, digits.count <= 9, let next = text.dropFirst(digits.count).first, next == "." || next == ")"
        {
            return digits + "\\" + text.dropFirst(digits.count)
        }
        return String(text)
    }

    private static func closingRun(of length: Int, in characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            if characters[index] == "`" {
                var run = 0
                while index + run < characters.count, characters[index + run] == "`" { run += 1 }
                if run == length { return index }
                index += run
            } else {
                index += 1
            }
        }
        return nil
    }
}
