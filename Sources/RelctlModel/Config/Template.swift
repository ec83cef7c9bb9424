import Foundation
import RelctlBasics

/// A string with `{placeholder}` slots, checked against the placeholders its field allows.
package struct Template: Sendable, Hashable, CustomStringConvertible {
    /// Every placeholder relctl knows, in the contract's order.
    package static let all: [String] = [
        "project", "version", "tag", "target", "os", "arch", "exe", "goos", "goarch", "goarm", "binary",
    ]
    /// Placeholders available wherever a target is known, but not per binary.
    package static let perTarget: [String] = [
        "project", "version", "tag", "target", "os", "arch", "exe", "goos", "goarch", "goarm",
    ]

    /// A piece of a template: text kept as written, or a `{name}` slot.
    package enum Segment: Sendable, Hashable {
        case literal(String)
        case placeholder(String)
    }

    package let text: String
    package let segments: [Segment]

    /// The placeholder names, in order of appearance.
    package var placeholders: [String] {
        segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    /// A template whose placeholders have already been checked (defaults, tests).
    package init(_ text: String) {
        self.text = text
        self.segments = Self.scan(text).segments
    }

    /// Checks every `{name}` against `allowed`; throws naming the first unknown one and the closest valid one.
    package init(_ text: String, allowed: [String]) throws {
        let scan = Self.scan(text)
        if let problem = scan.problem { throw ConfigError.templateSyntax(template: text, problem: problem) }
        self.text = text
        self.segments = scan.segments
        for name in placeholders where !allowed.contains(name) {
            if Self.all.contains(name) { throw ConfigError.placeholderNotAllowed(name: name, allowed: allowed) }
            throw ConfigError.unknownPlaceholder(name: name, template: text, allowed: allowed)
        }
    }

    /// Only `{identifier}` (starting with a letter) is a slot. Templates include shell commands,
    /// so braces that cannot be a placeholder stay literal: `${VAR}`, `awk '{print $1}'`, `{a,b}`,
    /// `find -exec {} ;`, `grep -E 'a{2}'`.
    private static func scan(_ text: String) -> (segments: [Segment], problem: String?) {
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            let isShellExpansion = open > text.startIndex && text[text.index(before: open)] == "$"
            if !isShellExpansion, name.first?.isLetter == true {
                if name.endIndex == after.endIndex { return (segments, "a `{` is never closed (`{\(name)`)") }
                if after[name.endIndex] == "}" {
                    if !literal.isEmpty { segments.append(.literal(literal)) }
                    literal = ""
                    segments.append(.placeholder(String(name)))
                    rest = after[after.index(after: name.endIndex)...]
                    continue
                }
            }
            literal.append("{")
            rest = after
        }
        literal += rest
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return (segments, nil)
    }

    /// Replaces each placeholder with its value; placeholders without a value stay as written.
    package func render(_ values: [String: String]) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .placeholder(let name): values[name] ?? "{\(name)}"
            }
        }.joined()
    }

    /// For a shell command (`sh -c`): each value is quoted for where its placeholder stands, so a
    /// project name such as `x; rm -rf ~` or `$(id)` stays one literal word. Inside '…' a `'` is
    /// closed and reopened around; inside "…" the characters special there are escaped; elsewhere
    /// a value of safe characters (every tag, version and triple) is pasted as is and anything
    /// else single-quoted.
    package func renderForShell(_ values: [String: String]) -> String {
        enum Quote { case none, single, double }
        var quote = Quote.none
        var escaped = false
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
                for character in text {
                    if escaped {
                        escaped = false
                        continue
                    }
                    switch (quote, character) {
                    case (.none, "\\"), (.double, "\\"): escaped = true
                    case (.none, "'"): quote = .single
                    case (.single, "'"): quote = .none
                    case (.none, "\""): quote = .double
                    case (.double, "\""): quote = .none
                    default: break
                    }
                }
            case .placeholder(let name):
                guard let value = values[name] else {
                    output += "{\(name)}"
                    continue
                }
                switch quote {
                case .single:
                    output += value.replacingOccurrences(of: "'", with: "'\\''")
                case .double:
                    for character in value {
                        if "$`\"\\".contains(character) { output.append("\\") }
                        output.append(character)
                    }
                case .none:
                    output += Self.shellWord(value)
                }
            }
        }
        return output
    }

    /// `value` as one shell word: as is when every character is safe unquoted (an empty value stays
    /// empty, as `{exe}` is on Linux), else in '…'.
    package static func shellWord(_ value: String) -> String {
        let safe = value.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII
                && (CharacterSet.alphanumerics.contains(scalar) || "@%+=:,./-_".unicodeScalars.contains(scalar))
        }
        return safe ? value : "'" + value.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    package var description: String { text }
}
