import Foundation
import RelctlBasics

/// The part of YAML that Helm's own files use, read strictly: `Chart.yaml`'s `dependencies`,
/// `Chart.lock` and a chart repository's `index.yaml` (as `helm repo index` writes it, or JSON).
/// Block mappings and sequences by indentation, plain, single- and double-quoted scalars (a plain
/// or quoted scalar may run over several lines), literal and folded block scalars, and flow
/// sequences or mappings of scalars on one line. Anchors, aliases, tags and multi-document streams
/// are refused with the line, never guessed at.
package indirect enum HelmYAML: Sendable, Equatable {
    case scalar(String)
    case list([HelmYAML])
    case map([Entry])
    /// An empty value (`key:` with nothing under it), `null` or `~`.
    case null

    package struct Entry: Sendable, Equatable {
        package var key: String
        package var value: HelmYAML
    }

    package struct Failure: Error, Sendable, Equatable {
        /// 1-based, 0 when the document as a whole is wrong.
        package var line: Int
        package var reason: String
    }

    package subscript(key: String) -> HelmYAML? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    package var text: String? {
        if case .scalar(let text) = self { return text }
        return nil
    }

    package var items: [HelmYAML]? {
        switch self {
        case .list(let items): return items
        case .null: return []
        default: return nil
        }
    }

    package var entries: [Entry]? {
        switch self {
        case .map(let entries): return entries
        case .null: return []
        default: return nil
        }
    }

    /// Parses `text`; a document whose first character is `{` is read as JSON (Helm accepts a JSON index).
    package static func parse(_ text: String) throws(Failure) -> HelmYAML {
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        if body.drop(while: { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" }).first == "{" {
            guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) else {
                throw Failure(line: 0, reason: "starts with `{` but is not valid JSON")
            }
            return fromJSON(object)
        }
        var reader = Reader(lines: try lines(of: body))
        guard !reader.lines.isEmpty else { return .null }
        let value = try reader.block(minimumIndent: 0)
        if reader.position < reader.lines.count {
            let line = reader.lines[reader.position]
            throw Failure(line: line.number, reason: "is indented where nothing can continue")
        }
        return value
    }

    private static func fromJSON(_ object: Any) -> HelmYAML {
        switch object {
        case let dictionary as [String: Any]:
            return .map(dictionary.keys.sorted().map { Entry(key: $0, value: fromJSON(dictionary[$0]!)) })
        case let array as [Any]:
            return .list(array.map(fromJSON))
        case let string as String:
            return .scalar(string)
        case let number as NSNumber:
            return .scalar(number.stringValue)
        default:
            return .null
        }
    }

    fileprivate struct Line {
        var number: Int
        var indent: Int
        var content: Substring
    }

    /// The lines with content: comments and blank lines dropped, indentation counted (tabs refused).
    private static func lines(of text: Substring) throws(Failure) -> [Line] {
        var result: [Line] = []
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let indent = line.prefix(while: { $0 == " " }).count
            line = line.dropFirst(indent)
            if line.first == "\t" {
                throw Failure(line: number, reason: "is indented with a tab, which YAML does not allow")
            }
            if number == 1 || result.isEmpty, line == "---" { continue }
            if line == "---" || line == "..." {
                throw Failure(line: number, reason: "starts a second YAML document; Helm's files hold one")
            }
            let content = stripComment(line)
            if content.isEmpty { continue }
            result.append(Line(number: number, indent: indent, content: content))
        }
        return result
    }

    /// `value # comment` without the comment, outside quotes.
    fileprivate static func stripComment(_ line: Substring) -> Substring {
        var quote: Character?
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'",
                previous == " " || previous == ":" || previous == "-"
                    || previous == "[" || previous == "," || previous == "{"
            {
                quote = character
            } else if character == "#", previous == " " || previous == "\t" || index == line.startIndex {
                return trimmed(line[..<index])
            }
            previous = character
        }
        return trimmed(line)
    }

    fileprivate static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        return text
    }

    private struct Reader {
        var lines: [Line]
        var position = 0

        /// The block that starts at the current line, which is indented at least `minimumIndent`.
        mutating func block(minimumIndent: Int) throws(Failure) -> HelmYAML {
            guard position < lines.count, lines[position].indent >= minimumIndent else { return .null }
            let line = lines[position]
            if isItem(line.content) { return try sequence(indent: line.indent) }
            if keyAndRest(line.content) != nil { return try mapping(indent: line.indent) }
            position += 1
            return try scalar(line.content, line: line.number, parentIndent: minimumIndent - 1)
        }

        func isItem(_ content: Substring) -> Bool { content == "-" || content.hasPrefix("- ") }

        mutating func sequence(indent: Int) throws(Failure) -> HelmYAML {
            var items: [HelmYAML] = []
            while position < lines.count, lines[position].indent == indent, isItem(lines[position].content) {
                let line = lines[position]
                let rest = line.content.dropFirst()
                let inner = rest.prefix(while: { $0 == " " }).count
                let value = rest.dropFirst(inner)
                if value.isEmpty {
                    position += 1
                    items.append(try block(minimumIndent: indent + 1))
                } else if isItem(value) || keyAndRest(value) != nil {
                    // `- key: value`: the item is a mapping (or sequence) indented where its first key is.
                    lines[position] = Line(number: line.number, indent: indent + 1 + inner, content: value)
                    items.append(try block(minimumIndent: indent + 1))
                } else {
                    position += 1
                    items.append(try scalar(value, line: line.number, parentIndent: indent))
                }
            }
            if position < lines.count, lines[position].indent > indent {
                throw Failure(line: lines[position].number, reason: "is indented more than the list items above it")
            }
            return .list(items)
        }

        mutating func mapping(indent: Int) throws(Failure) -> HelmYAML {
            var entries: [Entry] = []
            while position < lines.count, lines[position].indent == indent, !isItem(lines[position].content) {
                let line = lines[position]
                guard let (key, rest) = keyAndRest(line.content) else {
                    throw Failure(line: line.number, reason: "is neither `key: value` nor a list item")
                }
                if entries.contains(where: { $0.key == key }) {
                    throw Failure(line: line.number, reason: "repeats the key `\(key)`")
                }
                position += 1
                let value: HelmYAML
                if rest.isEmpty {
                    if position < lines.count, lines[position].indent == indent, isItem(lines[position].content) {
                        value = try sequence(indent: indent)
                    } else {
                        value = try block(minimumIndent: indent + 1)
                    }
                } else {
                    value = try scalar(rest, line: line.number, parentIndent: indent)
                }
                entries.append(Entry(key: key, value: value))
            }
            if position < lines.count, lines[position].indent > indent {
                throw Failure(line: lines[position].number, reason: "is indented more than the keys above it")
            }
            return .map(entries)
        }

        /// `key: rest` (rest may be empty), the key unquoted; nil when the content is no mapping key.
        func keyAndRest(_ content: Substring) -> (String, Substring)? {
            if let first = content.first, first == "\"" || first == "'" {
                guard let close = content.dropFirst().firstIndex(of: first) else { return nil }
                let after = content[content.index(after: close)...]
                guard after == ":" || after.hasPrefix(": ") else { return nil }
                return (String(content[content.index(after: content.startIndex)..<close]), trimmed(after.dropFirst()))
            }
            if let first = content.first, "[{&*!|>%@`".contains(first) { return nil }
            var index = content.startIndex
            while index < content.endIndex {
                if content[index] == ":" {
                    let next = content.index(after: index)
                    if next == content.endIndex || content[next] == " " {
                        return (String(trimmed(content[..<index])), trimmed(content[next...]))
                    }
                }
                index = content.index(after: index)
            }
            return nil
        }

        /// A scalar starting with `text` (on `line`), continued on the following lines indented
        /// more than `parentIndent` when it is plain, quoted over several lines, or a block scalar.
        mutating func scalar(_ text: Substring, line: Int, parentIndent: Int) throws(Failure) -> HelmYAML {
            guard let first = text.first else { return .null }
            switch first {
            case "&", "*", "!":
                throw Failure(
                    line: line, reason: "uses an anchor, alias or tag (`\(first)`), which relctl does not read here")
            case "|", ">":
                var parts: [Substring] = []
                while position < lines.count, lines[position].indent > parentIndent {
                    parts.append(lines[position].content)
                    position += 1
                }
                return .scalar(parts.joined(separator: first == "|" ? "\n" : " "))
            case "[", "{":
                return try flow(text, line: line)
            case "\"", "'":
                var whole = String(text)
                while !Self.closes(whole, quote: first) {
                    guard position < lines.count, lines[position].indent > parentIndent else {
                        throw Failure(line: line, reason: "opens a quoted value that never closes")
                    }
                    whole += " " + lines[position].content
                    position += 1
                }
                return .scalar(try Self.unquote(Substring(whole), line: line))
            default:
                var whole = String(text)
                while position < lines.count, lines[position].indent > parentIndent {
                    whole += " " + lines[position].content
                    position += 1
                }
                if whole == "~" || whole == "null" { return .null }
                return .scalar(whole)
            }
        }

        static func closes(_ text: String, quote: Character) -> Bool {
            let characters = Array(text.dropFirst())
            if quote == "'" {
                // '' is an escaped quote inside single quotes.
                var index = 0
                while index < characters.count {
                    if characters[index] == "'" {
                        if index + 1 < characters.count, characters[index + 1] == "'" {
                            index += 2
                            continue
                        }
                        return index == characters.count - 1
                    }
                    index += 1
                }
                return false
            }
            var escaped = false
            for (index, character) in characters.enumerated() {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return index == characters.count - 1
                }
            }
            return false
        }

        static func unquote(_ text: Substring, line: Int) throws(Failure) -> String {
            guard let quote = text.first, text.count >= 2, text.last == quote else {
                throw Failure(line: line, reason: "has text after its closing quote")
            }
            let body = text.dropFirst().dropLast()
            if quote == "'" { return body.replacingOccurrences(of: "''", with: "'") }
            var result = ""
            var iterator = body.makeIterator()
            while let character = iterator.next() {
                guard character == "\\" else {
                    result.append(character)
                    continue
                }
                guard let escape = iterator.next() else { break }
                switch escape {
                case "n": result.append("\n")
                case "t": result.append("\t")
                case "r": result.append("\r")
                case "0": result.append("\0")
                case "\"", "\\", "/", " ": result.append(escape)
                case "x", "u", "U":
                    let count = escape == "x" ? 2 : escape == "u" ? 4 : 8
                    var hex = ""
                    for _ in 0..<count { if let digit = iterator.next() { hex.append(digit) } }
                    guard let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) else {
                        throw Failure(line: line, reason: "has the escape `\\\(escape)\(hex)`, which is no character")
                    }
                    result.unicodeScalars.append(scalar)
                default:
                    throw Failure(line: line, reason: "has the escape `\\\(escape)`, which YAML does not know")
                }
            }
            return result
        }

        /// `[a, "b"]` or `{k: v}` on one line, of scalars.
        func flow(_ text: Substring, line: Int) throws(Failure) -> HelmYAML {
            guard let open = text.first, let close = text.last,
                (open == "[" && close == "]") || (open == "{" && close == "}")
            else { throw Failure(line: line, reason: "opens a flow collection that does not close on its line") }
            let body = trimmed(text.dropFirst().dropLast())
            if body.isEmpty { return open == "[" ? .list([]) : .map([]) }
            var parts: [Substring] = []
            var quote: Character?
            var start = body.startIndex
            for index in body.indices {
                let character = body[index]
                if let current = quote {
                    if character == current { quote = nil }
                } else if character == "\"" || character == "'" {
                    quote = character
                } else if character == "[" || character == "{" {
                    throw Failure(line: line, reason: "nests a flow collection, which relctl does not read here")
                } else if character == "," {
                    parts.append(trimmed(body[start..<index]))
                    start = body.index(after: index)
                }
            }
            parts.append(trimmed(body[start...]))
            func value(_ part: Substring) throws(Failure) -> HelmYAML {
                if let first = part.first, first == "\"" || first == "'" {
                    return .scalar(try Self.unquote(part, line: line))
                }
                return part.isEmpty || part == "~" || part == "null" ? .null : .scalar(String(part))
            }
            if open == "[" {
                var items: [HelmYAML] = []
                for part in parts where !part.isEmpty { items.append(try value(part)) }
                return .list(items)
            }
            var entries: [Entry] = []
            for part in parts where !part.isEmpty {
                guard let (key, rest) = keyAndRest(part) else {
                    throw Failure(line: line, reason: "has `\(part)` in a flow mapping, which is not `key: value`")
                }
                entries.append(Entry(key: key, value: try value(rest)))
            }
            return .map(entries)
        }
    }
}
