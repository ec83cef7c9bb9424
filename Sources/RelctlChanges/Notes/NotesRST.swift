import Foundation
import RelctlBasics
import RelctlModel

/// Release notes in reStructuredText, for a changelog written in it (`CHANGELOG.rst`, towncrier's):
/// the sections as titles adorned like the file's (`Features` over `--------`), entries as a
/// bullet list, links as anonymous hyperlinks (`` `abc1234 <url>`__ ``), text escaped so rst
/// reads it as written.
package enum NotesRST {
    package static func render(_ notes: ReleaseNotes, heading: String, sectionAdornment: Character) -> String {
        func title(_ text: String) -> String {
            "\n\(text)\n\(String(repeating: sectionAdornment, count: max(text.count, 3)))\n\n"
        }
        var out = heading + "\n"
        for section in notes.sections {
            out += title(escape(section.title))
            for entry in section.entries {
                out += "- " + line(entry, links: notes.links) + "\n"
                if let note = entry.migrationNote {
                    out +=
                        "\n"
                        + escape(note).split(separator: "\n", omittingEmptySubsequences: false)
                        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n\n"
                }
            }
        }
        if !notes.dependencies.isEmpty {
            out += title("Dependencies")
            out += notes.dependencies.map { "- " + escape($0) }.joined(separator: "\n") + "\n"
        }
        if notes.sections.isEmpty, notes.dependencies.isEmpty { out += "\nNo notable changes.\n" }
        if !notes.contributors.isEmpty {
            out += title("Contributors")
            out += notes.contributors.map { "- " + escape($0.name) }.joined(separator: "\n") + "\n"
        }
        if let compare = notes.compareURL, let previous = notes.previous {
            out += "\n" + hyperlink("Full changelog: \(previous)...\(notes.targetName)", compare) + "\n"
        }
        while out.contains("\n\n\n") { out = out.replacingOccurrences(of: "\n\n\n", with: "\n\n") }
        return out
    }

    /// One entry: `**scope:** summary (`abc1234 <url>`__)`, `(#1234)` linked to its issue.
    package static func line(_ entry: NotesEntry, links: RepositoryLinks?) -> String {
        var text = ""
        let label = entry.showsType ? entry.type + (entry.scope.map { "(\($0))" } ?? "") : entry.scope
        if let label { text += "**\(escape(label)):** " }
        text += linkingReferences(in: entry.summary, links: links)
        if let links {
            text += " (" + hyperlink(entry.shortHash, links.commitURL(entry.commit)) + ")"
        } else {
            text += " (\(entry.shortHash))"
        }
        return text
    }

    /// An anonymous hyperlink; `<` and `` ` `` in its text escaped.
    package static func hyperlink(_ text: String, _ url: String) -> String {
        "`\(escapeInline(text).replacingOccurrences(of: "<", with: "\\<")) <\(url)>`__"
    }

    /// The summary escaped, its `(#1234)` references linked to the forge's issues (as in Markdown).
    static func linkingReferences(in summary: String, links: RepositoryLinks?) -> String {
        guard let links, summary.contains("(#") else { return escape(summary) }
        var result = ""
        var rest = Substring(summary)
        while let open = rest.range(of: "(#") {
            let digits = rest[open.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
            let close = rest.index(open.upperBound, offsetBy: digits.count)
            guard !digits.isEmpty, digits.count <= 9, close < rest.endIndex, rest[close] == ")" else {
                result += escapeInline(String(rest[..<open.upperBound]))
                rest = rest[open.upperBound...]
                continue
            }
            let path = links.host == .gitlab ? "/-/issues/" : "/issues/"
            let url = links.baseURL + path + digits
            result += escapeInline(String(rest[..<open.lowerBound])) + "(" + hyperlink("#\(digits)", url) + ")"
            rest = rest[rest.index(after: close)...]
        }
        result += escapeInline(String(rest))
        if let first = summary.first, "-+#=.:>".contains(first) { result = "\\" + result }
        return result
    }

    /// Backslash before what rst would read as markup: emphasis, literals, references,
    /// substitutions, and a leading character that would start another block.
    package static func escape(_ text: String) -> String {
        let out = escapeInline(text)
        if let first = out.first, "-+#=.:>".contains(first) { return "\\" + out }
        return out
    }

    /// The inline part of `escape`: inside a line or a link's text.
    package static func escapeInline(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\*`|_".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
