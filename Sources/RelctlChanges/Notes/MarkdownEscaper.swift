import RelctlBasics

/// Escapes text for inline Markdown so a commit subject renders as written: `*`, `_`, `[`, `<`…
/// lose their meaning, while balanced code spans (`` `x_y` ``) are kept, since their content is literal anyway.
package enum MarkdownEscaper {
    package static let special: Set<Character> = ["\\", "*", "_", "[", "]", "<", ">", "|", "~", "&", "!"]

    package static func escape(_ text: String) -> String {
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
    package static func escapeBlockStart(_ escaped: String) -> String {
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

    /// Keeps a block of Markdown from a commit body (a `BREAKING CHANGE:` note) inside its place:
    /// a code fence left open is closed at the end of the block, and the start of an HTML block
    /// that never ends (`<!--` without `-->`, `<pre>` without `</pre>`…) is escaped. Either would
    /// otherwise swallow every later section of the notes.
    package static func containBlock(_ text: String) -> String {
        enum State {
            case normal
            case fence(Character, Int)
            case html(String)
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var state = State.normal
        for index in lines.indices {
            let line = lines[index]
            switch state {
            case .fence(let character, let length):
                if let close = fence(in: line), close.character == character, close.length >= length,
                    close.rest.allSatisfy({ $0 == " " || $0 == "\t" })
                {
                    state = .normal
                }
            case .html(let end):
                if line.lowercased().contains(end) { state = .normal }
            case .normal:
                if let open = fence(in: line), open.character == "~" || !open.rest.contains("`") {
                    state = .fence(open.character, open.length)
                } else if let end = htmlBlockEnd(startingLine: line) {
                    let indent = line.prefix { $0 == " " }
                    if line.dropFirst(indent.count + 2).lowercased().contains(end) {
                        continue  // ends on its own line
                    } else if lines[(index + 1)...].contains(where: { $0.lowercased().contains(end) }) {
                        state = .html(end)
                    } else {
                        lines[index] = indent + "\\" + line.dropFirst(indent.count)
                    }
                }
            }
        }
        if case .fence(let character, let length) = state {
            lines.append(String(repeating: character, count: length))
        }
        return lines.joined(separator: "\n")
    }

    /// A code fence at the start of `line` (at most three spaces in): its character, length and the rest.
    private static func fence(in line: String) -> (character: Character, length: Int, rest: Substring)? {
        let indent = line.prefix { $0 == " " }
        guard indent.count <= 3 else { return nil }
        let body = line.dropFirst(indent.count)
        guard let first = body.first, first == "`" || first == "~" else { return nil }
        let run = body.prefix { $0 == first }
        guard run.count >= 3 else { return nil }
        return (first, run.count, body.dropFirst(run.count))
    }

    /// For a line that opens one of CommonMark's HTML blocks 1 to 5 (which end only at a marker,
    /// not at a blank line), the marker that ends it.
    private static func htmlBlockEnd(startingLine line: String) -> String? {
        let indent = line.prefix { $0 == " " }
        guard indent.count <= 3 else { return nil }
        let body = line.dropFirst(indent.count).lowercased()
        for tag in ["script", "pre", "style", "textarea"] where body.hasPrefix("<" + tag) {
            let next = body.dropFirst(tag.count + 1).first
            if next == nil || next == ">" || next == " " || next == "\t" { return "</\(tag)>" }
        }
        if body.hasPrefix("<!--") { return "-->" }
        if body.hasPrefix("<?") { return "?>" }
        if body.hasPrefix("<![cdata[") { return "]]>" }
        if body.hasPrefix("<!"), body.dropFirst(2).first?.isLetter == true { return ">" }
        return nil
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
