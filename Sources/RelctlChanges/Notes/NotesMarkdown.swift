import Foundation
import RelctlBasics
import RelctlModel

/// The built-in Markdown layout of release notes.
package enum NotesMarkdown {
    package static func render(_ notes: ReleaseNotes) -> String {
        render(notes, heading: heading(notes), sectionLevel: 3)
    }

    /// The notes under another heading, their sections at `sectionLevel` (a changelog's own levels).
    package static func render(_ notes: ReleaseNotes, heading: String, sectionLevel: Int) -> String {
        let marks = String(repeating: "#", count: min(max(sectionLevel, 1), 6))
        var out = heading + "\n"
        for section in notes.sections {
            out += "\n\(marks) \(section.title)\n\n"
            for entry in section.entries {
                out += "- " + line(entry, links: notes.links) + "\n"
                if let note = entry.migrationNote {
                    out +=
                        "\n"
                        + MarkdownEscaper.containBlock(note).split(separator: "\n", omittingEmptySubsequences: false)
                        .map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n\n"
                }
            }
        }
        if !notes.dependencies.isEmpty {
            out += "\n\(marks) Dependencies\n\n"
            out +=
                notes.dependencies.map { "- " + MarkdownEscaper.escapeBlockStart(MarkdownEscaper.escape($0)) }
                .joined(separator: "\n") + "\n"
        }
        if notes.sections.isEmpty, notes.dependencies.isEmpty { out += "\nNo notable changes.\n" }
        if !notes.contributors.isEmpty {
            out += "\n\(marks) Contributors\n\n"
            out +=
                notes.contributors.map { "- " + MarkdownEscaper.escapeBlockStart(MarkdownEscaper.escape($0.name)) }
                .joined(separator: "\n") + "\n"
        }
        if let manifest = notes.manifest {
            let install = InstallSection.render(
                manifest: manifest, links: notes.links, verification: notes.verification)
            out += "\n" + (install.hasPrefix("### ") ? marks + " " + install.dropFirst(4) : install)
        }
        if let compare = notes.compareURL, let previous = notes.previous {
            out +=
                "\n**Full changelog**: [\(MarkdownEscaper.escape(previous))...\(MarkdownEscaper.escape(notes.targetName))](\(compare))\n"
        }
        // Collapse the blank line doubled after a trailing migration note.
        while out.contains("\n\n\n") { out = out.replacingOccurrences(of: "\n\n\n", with: "\n\n") }
        return out
    }

    /// `## [1.2.0](compare) - 2026-01-02`, or `## Unreleased - …`.
    package static func heading(_ notes: ReleaseNotes) -> String {
        let title = notes.version?.description ?? "Unreleased"
        if let compare = notes.compareURL { return "## [\(title)](\(compare)) - \(notes.date)" }
        return "## \(title) - \(notes.date)"
    }

    /// `(#1234)` (a squash merge's pull request, or an issue) and GitLab's `(!12)` become links:
    /// a forge autolinks them in a release body, but not in a CHANGELOG.md file.
    package static func linkingReferences(in escaped: String, links: RepositoryLinks) -> String {
        guard escaped.contains("(#") || escaped.contains("(\\!") else { return escaped }
        let pattern = #"\((#|\\!)([0-9]{1,9})\)"#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return escaped }
        let whole = NSRange(escaped.startIndex..., in: escaped)
        var result = ""
        var last = escaped.startIndex
        for match in expression.matches(in: escaped, range: whole) {
            guard let range = Range(match.range, in: escaped), let sigil = Range(match.range(at: 1), in: escaped),
                let digits = Range(match.range(at: 2), in: escaped)
            else { continue }
            let number = String(escaped[digits])
            let isMergeRequest = escaped[sigil] != "#"
            // GitHub sends /issues/N on to the pull request when N is one.
            let url =
                links.host == .gitlab
                ? "\(links.baseURL)/-/\(isMergeRequest ? "merge_requests" : "issues")/\(number)"
                : isMergeRequest ? nil : "\(links.baseURL)/issues/\(number)"
            result += escaped[last..<range.lowerBound]
            if let url {
                result += "([\(isMergeRequest ? "!" : "#")\(number)](\(url)))"
            } else {
                result += escaped[range]
            }
            last = range.upperBound
        }
        result += escaped[last...]
        return result
    }

    package static func line(_ entry: NotesEntry, links: RepositoryLinks?) -> String {
        var text = ""
        // `**cli:**` for a scope; `**deps:**` / `**deps(cli):**` for a type the section title does not name.
        let label = entry.showsType ? entry.type + (entry.scope.map { "(\($0))" } ?? "") : entry.scope
        if let label { text += "**\(MarkdownEscaper.escape(label)):** " }
        var summary = MarkdownEscaper.escape(entry.summary)
        if let links { summary = linkingReferences(in: summary, links: links) }
        text += label == nil ? MarkdownEscaper.escapeBlockStart(summary) : summary
        if let links {
            text += " ([\(entry.shortHash)](\(links.commitURL(entry.commit))))"
        } else {
            text += " (\(entry.shortHash))"
        }
        return text
    }
}
