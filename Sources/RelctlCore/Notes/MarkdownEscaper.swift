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
