import Foundation
import RelctlBasics

/// A commit message parsed by the Conventional Commits 1.0.0 grammar:
/// `type(scope)!: description`, an optional body, and optional footers (`Token: value`, `Token #value`).
package struct ConventionalCommit: Sendable, Equatable {
    /// One trailer-style footer; `BREAKING CHANGE` keeps its space.
    package struct Footer: Sendable, Equatable {
        package var token: String
        /// `": "` or `" #"`.
        package var separator: String
        package var value: String

        package init(token: String, separator: String, value: String) {
            self.token = token
            self.separator = separator
            self.value = value
        }

        /// True for `BREAKING CHANGE` and its synonym `BREAKING-CHANGE`, unless its value says there
        /// is none: a pull-request template filled in with `BREAKING CHANGE: N/A` (rxjs' `docs:`
        /// typo fix on its 7.x line, which made plan refuse the branch's range).
        package var isBreaking: Bool {
            guard token == "BREAKING CHANGE" || token == "BREAKING-CHANGE" else { return false }
            return !Self.saysNone(value)
        }

        /// `N/A`, `none`, `no`, `-` and the like as the value's first line (the template's next
        /// paragraph, `Related issue (if exists): N/A`, is no footer, so it runs on in the value).
        static func saysNone(_ value: String) -> Bool {
            let first = value.trimmingCharacters(in: .whitespacesAndNewlines).split(whereSeparator: \.isNewline).first ?? ""
            let said = first.trimmingCharacters(in: .whitespaces).lowercased()
                .trimmingCharacters(in: CharacterSet(charactersIn: ".!"))
            return ["n/a", "na", "n.a", "none", "no", "nope", "-", "--", "nothing", "not applicable", "no breaking changes"]
                .contains(said)
        }
    }

    /// Lowercased (the spec makes types case-insensitive).
    package var type: String
    package var scope: String?
    package var description: String
    package var body: String?
    package var footers: [Footer]
    /// `!` after the type/scope.
    package var hasBang: Bool

    /// `!` or a `BREAKING CHANGE` footer.
    package var isBreaking: Bool { hasBang || footers.contains(where: \.isBreaking) }

    /// The text of the breaking-change footers: the migration note for users.
    package var breakingNote: String? {
        let notes = footers.filter(\.isBreaking).map(\.value).filter { !$0.isEmpty }
        return notes.isEmpty ? nil : notes.joined(separator: "\n\n")
    }

    package init(
        type: String, scope: String? = nil, description: String, body: String? = nil, footers: [Footer] = [],
        hasBang: Bool = false
    ) {
        self.type = type
        self.scope = scope
        self.description = description
        self.body = body
        self.footers = footers
        self.hasBang = hasBang
    }

    /// Parses a whole message (subject, blank line, rest); nil when the subject is not conventional.
    package init?(message: String) {
        let (subject, rest) = Self.splitMessage(message)
        self.init(subject: subject, body: rest)
    }

    /// Parses a subject line and the text after it (what `git log %s` and `%b` give).
    package init?(subject: String, body rawBody: String) {
        guard let header = Self.parseHeader(subject) else { return nil }
        type = header.type
        scope = header.scope
        description = header.description
        hasBang = header.bang
        let (body, footers) = Self.parseBody(rawBody)
        self.body = body
        self.footers = footers
    }

    package static func splitMessage(_ message: String) -> (String, String) {
        let isLineEnd: (Character) -> Bool = { $0 == "\n" || $0 == "\r\n" }
        guard let newline = message.firstIndex(where: isLineEnd) else { return (message, "") }
        let subject = String(message[..<newline])
        let rest = message[message.index(after: newline)...].drop(while: isLineEnd)
        return (subject, String(rest))
    }

    private static func isTypeCharacter(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
    }

    /// `type(scope)!: description`, scanned on bytes: this runs once per commit of large histories.
    package static func parseHeader(
        _ subject: String
    ) -> (type: String, scope: String?, bang: Bool, description: String)? {
        let bytes = Array(subject.utf8)
        if bytes.first == UInt8(ascii: "[") { return bracketHeader(bytes) }
        if let first = bytes.first, first >= 0x80 || first == UInt8(ascii: ":") { return gitmojiHeader(subject) }
        var index = 0
        while index < bytes.count, isTypeCharacter(bytes[index]) { index += 1 }
        guard index > 0, let first = bytes.first, (first >= 0x41 && first <= 0x5A) || (first >= 0x61 && first <= 0x7A)
        else { return nil }
        let type = String(decoding: bytes[0..<index], as: UTF8.self).lowercased()
        var scope: String?
        if index < bytes.count, bytes[index] == UInt8(ascii: "(") {
            guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
            let text = String(decoding: bytes[(index + 1)..<close], as: UTF8.self).trimmingSpaces()
            guard !text.isEmpty, !text.contains("(") else { return nil }
            scope = text
            index = close + 1
        }
        var bang = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "!") {
            bang = true
            index += 1
        }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: " ") else {
            return nil
        }
        let description = String(decoding: bytes[(index + 2)...], as: UTF8.self).trimmingSpaces()
        guard !description.isEmpty else { return nil }
        return (type, scope, bang, description)
    }

    /// The change types a bracketed word names (NATS' `[ADDED]`, `[FIXED]`, `[BREAKING]`): the
    /// words that say what a conventional type says; any other (`[IMPROVED]`, `[skip ci]`) is no type.
    static let bracketTypes: [String: String] = [
        "added": "feat", "add": "feat", "new": "feat", "feature": "feat", "feat": "feat",
        "fixed": "fix", "fix": "fix", "bugfix": "fix", "breaking": "breaking",
    ]

    /// `[ADDED] description`: a change type in brackets, as nats.go and nats-server write their
    /// subjects; `[BREAKING]` is a breaking change.
    private static func bracketHeader(_ bytes: [UInt8]) -> (type: String, scope: String?, bang: Bool, description: String)? {
        guard let close = bytes.prefix(12).firstIndex(of: UInt8(ascii: "]")) else { return nil }
        let word = String(decoding: bytes[1..<close], as: UTF8.self).lowercased()
        guard let type = bracketTypes[word] else { return nil }
        let description = String(decoding: bytes[(close + 1)...], as: UTF8.self).trimmingSpaces()
        guard !description.isEmpty else { return nil }
        return (type, nil, type == "breaking", description)
    }

    /// The gitmoji (gitmoji.dev) that say what a conventional type says, as the emoji and as its
    /// `:shortcode:`: ✨ a feature, 🐛 and 🚑 a fix, 🔒 a security fix, 💥 a breaking change. Any
    /// other (📝, ⬆️, ♻️) is no type.
    static let gitmojiTypes: [String: String] = [
        "\u{2728}": "feat", ":sparkles:": "feat", "\u{1F41B}": "fix", ":bug:": "fix", "\u{1F691}": "fix",
        ":ambulance:": "fix", "\u{1F512}": "fix", ":lock:": "fix", "\u{1F4A5}": "breaking", ":boom:": "breaking",
    ]

    /// The types of the Conventional Commits presets: after a gitmoji that says a type itself, only
    /// one of these overrides it (`✨ Add: forms` stays a feature).
    static let conventionalTypes: Set<String> = [
        "feat", "fix", "docs", "style", "refactor", "perf", "test", "build", "ci", "chore", "revert", "deps",
    ]

    /// `✨ Add a feature` or `:sparkles: Add a feature`: a gitmoji, as FastAPI and many others
    /// write their subjects (a variation selector after the emoji is allowed). A conventional
    /// header after the emoji gives the type, scope and description (pypa/build's `⚠️ feat(util):
    /// deprecate x`, `🐛 fix(cli): …`), and 💥 before it makes it breaking.
    private static func gitmojiHeader(_ subject: String) -> (type: String, scope: String?, bang: Bool, description: String)? {
        let word = subject.prefix { $0 != " " }
        guard word.count <= 24 else { return nil }
        let emoji = String(word.unicodeScalars.filter { $0.value != 0xFE0F })
        let description = String(subject.dropFirst(word.count)).trimmingSpaces()
        guard !description.isEmpty else { return nil }
        if let first = description.utf8.first, first < 0x80, first != UInt8(ascii: ":"), first != UInt8(ascii: "["),
            let header = parseHeader(description),
            gitmojiTypes[emoji] == nil || conventionalTypes.contains(header.type)
        {
            return (header.type, header.scope, header.bang || gitmojiTypes[emoji] == "breaking", header.description)
        }
        guard let type = gitmojiTypes[emoji] else { return nil }
        return (type, nil, type == "breaking", description)
    }

    /// A footer's first line: `Token: value` or `Token #value`, token `[A-Za-z0-9-]+` or `BREAKING CHANGE`.
    /// Whether `line` is a `BREAKING CHANGE:` (or `BREAKING-CHANGE:`) note.
    static func isBreakingNote(_ line: Substring) -> Bool {
        (line.hasPrefix("BREAKING CHANGE") || line.hasPrefix("BREAKING-CHANGE")) && footerStart(line) != nil
    }

    package static func footerStart(_ line: Substring) -> Footer? {
        let breakingPrefixes = ["BREAKING CHANGE", "BREAKING-CHANGE"]
        for prefix in breakingPrefixes where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            if rest.hasPrefix(": ") || rest == ":" {
                return Footer(token: prefix, separator: ": ", value: String(rest.dropFirst(1)).trimmingSpaces())
            }
            if rest.hasPrefix(" #") { return Footer(token: prefix, separator: " #", value: String(rest.dropFirst(2))) }
        }
        var end = line.startIndex
        while end < line.endIndex, let ascii = line[end].asciiValue, isTypeCharacter(ascii), ascii != 0x5F {
            end = line.index(after: end)
        }
        guard end > line.startIndex else { return nil }
        let token = String(line[..<end])
        let rest = line[end...]
        if rest.hasPrefix(": ") {
            return Footer(token: token, separator: ": ", value: String(rest.dropFirst(2)).trimmingSpaces())
        }
        if rest.hasPrefix(" #"), rest.count > 2 {
            return Footer(token: token, separator: " #", value: String(rest.dropFirst(2)))
        }
        return nil
    }

    /// Footers begin at the first paragraph whose first line is a footer; everything after belongs
    /// to them (a value may continue on following lines, as the spec allows). A message written
    /// with CRLF line ends (tokio's console, `BREAKING CHANGE:` then its text on the next line)
    /// has the same lines: `"\r\n"` is one Character, which a split at `"\n"` never finds.
    package static func parseBody(_ text: String) -> (body: String?, footers: [Footer]) {
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        var footerStartLine: Int?
        // A breaking-change note starts the footers wherever its line stands, as
        // conventional-changelog reads it: octokit/core.js's squash body put `BREAKING CHANGE: Drop
        // support for NodeJS v18` on the second line of a paragraph, released as 7.0.0.
        for (index, line) in lines.enumerated()
        where index == 0 || lines[index - 1].isBlank || isBreakingNote(line) {
            if footerStart(line) != nil {
                footerStartLine = index
                break
            }
        }
        let bodyLines = lines[..<(footerStartLine ?? lines.count)]
        let body = bodyLines.joined(separator: "\n").trimmingBlanks(newlines: true)
        var footers: [Footer] = []
        if let footerStartLine {
            for line in lines[footerStartLine...] {
                if let footer = footerStart(line) {
                    footers.append(footer)
                } else if !footers.isEmpty {
                    footers[footers.count - 1].value += "\n" + line
                }
            }
            for index in footers.indices {
                footers[index].value = footers[index].value.trimmingBlanks(newlines: true)
            }
        }
        return (body.isEmpty ? nil : body, footers)
    }
}

extension String {
    package func trimmingSpaces() -> String { trimmingBlanks() }
}
