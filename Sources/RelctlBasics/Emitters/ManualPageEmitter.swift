/// A manual page in man(7) macros (`relctl.1`), written from a command tree: the root command's
/// synopsis and description, then one subsection per command (nested ones by their full path)
/// with its usage, its text and a tagged paragraph per option. No date in `.TH`: the same tree
/// gives the same bytes. Every text is escaped for roff: a backslash, a leading `.` or `'`, and
/// `-` in option names (so `man` prints an ASCII hyphen that can be searched and copied).
package enum ManualPageEmitter {
    package struct Option: Equatable, Sendable {
        /// `--config <path>`, `-q, --quiet`, `<tag>`.
        package var synopsis: String
        package var text: String

        package init(synopsis: String, text: String) {
            self.synopsis = synopsis
            self.text = text
        }
    }

    package struct Command: Equatable, Sendable {
        /// `relctl ci generate`.
        package var path: String
        package var abstract: String
        package var discussion: String
        package var usage: String
        package var options: [Option]

        package init(path: String, abstract: String, discussion: String, usage: String, options: [Option]) {
            self.path = path
            self.abstract = abstract
            self.discussion = discussion
            self.usage = usage
            self.options = options
        }
    }

    package struct Section: Equatable, Sendable {
        package var title: String
        package var paragraphs: [String]

        package init(title: String, paragraphs: [String]) {
            self.title = title
            self.paragraphs = paragraphs
        }
    }

    package struct Page: Equatable, Sendable {
        package var name: String
        package var version: String
        /// `YYYY-MM-DD`, or empty (mandoc then warns of a missing date).
        package var date: String
        package var root: Command
        package var commands: [Command]
        /// Further sections, in order (EXIT STATUS, SEE ALSO).
        package var sections: [Section]

        package init(
            name: String, version: String, date: String, root: Command, commands: [Command], sections: [Section]
        ) {
            self.name = name
            self.version = version
            self.date = date
            self.root = root
            self.commands = commands
            self.sections = sections
        }
    }

    package static func render(_ page: Page) -> String {
        var lines = [
            ".TH \(quotedArgument(page.name.uppercased())) 1 \(quotedArgument(page.date)) \(quotedArgument(page.version.isEmpty ? page.name : "\(page.name) \(page.version)")) \"User Commands\"",
            ".SH NAME",
            text(page.name, hyphens: true) + " \\- " + text(page.root.abstract, hyphens: false),
            ".SH SYNOPSIS",
        ]
        lines += synopsis(page.root.usage)
        lines.append(".SH DESCRIPTION")
        lines += paragraphs(page.root.discussion)
        if !page.root.options.isEmpty {
            lines.append(".SH OPTIONS")
            lines += options(page.root.options)
        }
        if !page.commands.isEmpty {
            lines.append(".SH COMMANDS")
            for command in page.commands {
                lines.append(".SS " + quotedArgument(command.path))
                lines += paragraphs(command.abstract)
                lines += synopsis(command.usage)
                lines += paragraphs(command.discussion)
                lines += options(command.options)
            }
        }
        for section in page.sections {
            lines.append(".SH " + quotedArgument(section.title.uppercased()))
            for paragraph in section.paragraphs { lines += paragraphs(paragraph) }
        }
        // A paragraph macro right after a heading is redundant (mandoc -Tlint warns of it).
        var kept: [String] = []
        for line in lines {
            if line == ".PP", let last = kept.last, last.hasPrefix(".SH") || last.hasPrefix(".SS") { continue }
            kept.append(line)
        }
        return kept.joined(separator: "\n") + "\n"
    }

    private static func synopsis(_ usage: String) -> [String] {
        let usage = usage.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard !usage.isEmpty else { return [] }
        return [".PP", ".nf"] + usage.map { text($0, hyphens: true) } + [".fi"]
    }

    private static func options(_ options: [Option]) -> [String] {
        options.flatMap { option -> [String] in
            [".TP", "\\fB" + text(option.synopsis, hyphens: true) + "\\fR"]
                + (option.text.isEmpty ? ["\\&"] : bodyLines(option.text))
        }
    }

    /// Paragraphs split at blank lines, each line kept (a line break inside one is a space to roff).
    private static func paragraphs(_ text: String) -> [String] {
        let blocks = text.components(separatedBy: "\n\n").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
        return blocks.flatMap { [".PP"] + bodyLines($0) }
    }

    /// Running text, filled to lines of at most 80 bytes where a space allows (roff fills the
    /// paragraph again; the source stays readable and mandoc -Tlint quiet).
    private static func bodyLines(_ body: String) -> [String] {
        let words = body.split(whereSeparator: { $0 == " " || $0.isNewline }).map {
            text(String($0), hyphens: false, guardingStart: false)
        }
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty, line.utf8.count + 1 + word.utf8.count > 80 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        // A line starting with `.` or `'` would be read as a request.
        return lines.map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : $0 }
    }

    /// One line of running text: `\` as `\e`, a line that would start a request (`.` or `'`)
    /// guarded by `\&`, in code (option names, usage lines) every `-` as `\-`, and every character
    /// beyond ASCII as `\[uXXXX]` (read the same whatever the reader's locale or input encoding).
    package static func text(_ line: String, hyphens: Bool, guardingStart: Bool = true) -> String {
        var escaped = ""
        for scalar in line.unicodeScalars {
            if scalar == "\\" {
                escaped += "\\e"
            } else if scalar.value > 127 {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        if hyphens { escaped = escaped.replacingOccurrences(of: "-", with: "\\-") }
        if guardingStart, escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    /// A macro argument in double quotes (a `"` inside doubled, as groff reads it).
    private static func quotedArgument(_ value: String) -> String {
        "\"" + text(value, hyphens: false).replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
