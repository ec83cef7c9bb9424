import Foundation
import Mustache
import RelctlBasics

/// A user's `[notes] template`: Mustache (hummingbird-project/swift-mustache) rendered over the
/// same data as the built-in notes. Variables are listed in docs/notes.md.
package struct NotesTemplate: Sendable {
    package var template: MustacheTemplate
    package var displayPath: String

    /// Reads and parses the template; a missing file or syntax error is bad input naming file and line.
    package static func load(_ path: String, root: URL) throws -> NotesTemplate {
        let displayPath = path
        // A template committed as a link out of the project is refused, not rendered (issue 55).
        guard let data = try ProjectFile.open(path, in: root, what: "[notes] template").data() else {
            throw NotesError.templateNotFound(path: displayPath)
        }
        return try NotesTemplate(text: String(decoding: data, as: UTF8.self), displayPath: displayPath)
    }

    package init(text: String, displayPath: String) throws {
        self.displayPath = displayPath
        if let (line, depth) = Self.tooDeep(text) {
            throw NotesError.invalidTemplate(
                path: displayPath, line: line, column: 1,
                reason:
                    "sections nested \(depth) deep; relctl renders at most \(Self.maximumDepth) levels (the parser and renderer recurse per level, and thousands crash them)",
                text: "")
        }
        do {
            template = try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            throw NotesError.invalidTemplate(
                path: displayPath, line: error.context.lineNumber, column: error.context.columnNumber,
                reason: "\(error.error)", text: error.context.line.trimmingCharacters(in: .whitespaces))
        }
    }

    /// Real notes templates nest sections three or four deep (groups, entries, a breaking note).
    package static let maximumDepth = 32

    /// The line where section nesting first goes past `maximumDepth`, and that depth; nil when it
    /// never does. Follows `{{=<% %>=}}` delimiter changes, as the parser does.
    package static func tooDeep(_ text: String) -> (line: Int, depth: Int)? {
        var open = "{{"
        var close = "}}"
        var depth = 0
        var position = text.startIndex
        while let start = text.range(of: open, range: position..<text.endIndex),
            let end = text.range(of: close, range: start.upperBound..<text.endIndex)
        {
            let tag = text[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
            position = end.upperBound
            switch tag.first {
            case "#", "^":
                depth += 1
                if depth > maximumDepth {
                    return (text[..<start.lowerBound].reduce(1) { $1 == "\n" ? $0 + 1 : $0 }, depth)
                }
            case "/":
                depth = max(0, depth - 1)
            case "=" where tag.count > 2 && tag.last == "=":
                let delimiters = tag.dropFirst().dropLast().split(whereSeparator: \.isWhitespace)
                if delimiters.count == 2 {
                    open = String(delimiters[0])
                    close = String(delimiters[1])
                }
            default:
                break
            }
        }
        return nil
    }

    package func render(_ notes: ReleaseNotes) -> String {
        template.render(Self.data(for: notes))
    }

    /// The template's view of the notes. Text values come raw (`summary`) and Markdown-escaped
    /// (`summaryMarkdown`); use triple braces `{{{…}}}` for the latter since Mustache escapes HTML.
    package static func data(for notes: ReleaseNotes) -> [String: Any] {
        func entryData(_ entry: NotesEntry) -> [String: Any] {
            var data: [String: Any] = [
                "commit": entry.commit, "shortHash": entry.shortHash, "type": entry.type,
                "summary": entry.summary, "summaryMarkdown": MarkdownEscaper.escape(entry.summary),
                "breaking": entry.breaking, "author": entry.authorName, "authorEmail": entry.authorEmail,
            ]
            if let scope = entry.scope { data["scope"] = scope }
            // Markdown from a commit body: an unclosed code fence or HTML block in it is closed
            // (or escaped) here as in the built-in layout, or it would swallow every later section.
            if let note = entry.migrationNote { data["migrationNote"] = MarkdownEscaper.containBlock(note) }
            if let links = notes.links { data["url"] = links.commitURL(entry.commit) }
            return data
        }
        var data: [String: Any] = [
            "date": notes.date,
            "title": notes.version?.description ?? "Unreleased",
            "commit": notes.targetCommit,
            "sections": notes.sections.map {
                ["title": $0.title, "entries": $0.entries.map(entryData)] as [String: Any]
            },
            "contributors": notes.contributors.map { ["name": $0.name, "email": $0.email] },
            "markdown": NotesMarkdown.render(notes),
        ]
        if let tag = notes.tag { data["tag"] = tag }
        if let version = notes.version { data["version"] = version.description }
        if let previous = notes.previous { data["previous"] = previous }
        if let compare = notes.compareURL { data["compareURL"] = compare }
        if let links = notes.links { data["repositoryURL"] = links.baseURL }
        if let manifest = notes.manifest {
            data["install"] = InstallSection.render(
                manifest: manifest, links: notes.links, verification: notes.verification)
            data["artifacts"] = manifest.artifacts.map {
                ["name": $0.name, "target": $0.target, "format": $0.format, "size": $0.size, "sha256": $0.sha256]
                    as [String: Any]
            }
        }
        return data
    }
}
