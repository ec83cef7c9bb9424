import Foundation
import RelctlBasics

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
        if notes.sections.isEmpty { out += "\nNo notable changes.\n" }
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

    package static func line(_ entry: NotesEntry, links: RepositoryLinks?) -> String {
        var text = ""
        // `**cli:**` for a scope; `**deps:**` / `**deps(cli):**` for a type the section title does not name.
        let label = entry.showsType ? entry.type + (entry.scope.map { "(\($0))" } ?? "") : entry.scope
        if let label { text += "**\(MarkdownEscaper.escape(label)):** " }
        let summary = MarkdownEscaper.escape(entry.summary)
        text += label == nil ? MarkdownEscaper.escapeBlockStart(summary) : summary
        if let links {
            text += " ([\(entry.shortHash)](\(links.commitURL(entry.commit))))"
        } else {
            text += " (\(entry.shortHash))"
        }
        return text
    }
}
