import Foundation
import RelctlBasics
import RelctlModel

/// Keeps a `CHANGELOG.md` the way its authors write it: a release's section goes above the newest
/// older release, in the file's own heading level and style (PRODUCT "Changelogs are edited, never
/// overwritten"). Every line relctl did not write stays: relctl only replaces or removes a section
/// closed by its own digest marker whose text still matches the digest, so a second run changes
/// nothing and a hand-edited or hand-written section is never lost.
public enum Changelog {
    package static let defaultTitle = "# Changelog"

    /// The updated text and what the user should hear about it.
    package struct Edit: Sendable, Equatable {
        package var text: String
        /// Sections relctl kept although the release may concern them (a hand-written `Unreleased`).
        package var remarks: [Diagnostic]
    }

    /// Returns the new file text with the notes' section inserted, or replacing the section relctl
    /// wrote earlier for the same release (or the `Unreleased` section it wrote before the tag).
    /// A section for the same release that relctl did not write (or that was edited since) is
    /// refused naming its line, unless `force`. A CRLF file stays CRLF; a file without a final
    /// line break keeps it that way.
    package static func insert(
        _ notes: ReleaseNotes, into existing: String?, force: Bool = false, displayPath: String
    ) throws
        -> Edit
    {
        let format = ChangelogDocument.Format(path: displayPath)
        guard let existing, !existing.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            let section = render(notes, style: style(of: ChangelogDocument(lines: [], format: format)), format: format)
            return Edit(
                text: (title(format) + [""] + section.lines + ["", section.marker]).joined(separator: "\n") + "\n",
                remarks: [])
        }
        let crlf = existing.contains("\r\n")
        var text = crlf ? existing.replacingOccurrences(of: "\r\n", with: "\n") : existing
        let endsWithNewline = text.hasSuffix("\n")
        if endsWithNewline { text.removeLast() }
        var edit = try edit(
            notes, lines: text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init), force: force,
            displayPath: displayPath, format: format)
        if endsWithNewline || edit.text.isEmpty { edit.text += "\n" }
        if crlf { edit.text = edit.text.replacingOccurrences(of: "\n", with: "\r\n") }
        return edit
    }

    /// The title a new changelog gets, in its format.
    package static func title(_ format: ChangelogDocument.Format) -> [String] {
        format == .restructuredText ? ["=========", "Changelog", "========="] : [defaultTitle]
    }

    private static func edit(
        _ notes: ReleaseNotes, lines original: [String], force: Bool, displayPath: String,
        format: ChangelogDocument.Format
    ) throws
        -> Edit
    {
        var lines = original
        let names = Set(notes.projectName.map { [$0.lowercased()] } ?? [])
        var document = ChangelogDocument(lines: lines, format: format, names: names)
        var remarks: [Diagnostic] = []
        let style = Self.style(of: document)
        let section = render(notes, style: style, format: format)
        let block = section.lines + ["", section.marker]

        let sameRelease =
            notes.version.map { version in document.releaseHeadings.filter { $0.version == version } }
            ?? document.headings.filter(\.isUnreleased)
        if let existing = sameRelease.first {
            if let generated = document.unchangedGeneratedSection(at: existing) {
                lines.replaceSubrange(generated, with: block)
                return Edit(text: lines.joined(separator: "\n"), remarks: remarks)
            }
            // An `Unreleased` heading above the release headings' level ends at the first of them.
            var end = ChangelogIntent.unreleasedEnd(
                of: existing, in: document, releaseLevel: ChangelogIntent.usualReleaseLevel(document))
            while end > existing.line + existing.lineCount,
                lines[end - 1].trimmingCharacters(in: .whitespaces).isEmpty
            {
                end -= 1
            }
            // Written by a relctl before markers, unchanged: exactly what relctl writes now.
            if Array(lines[existing.line..<end]) == section.lines {
                lines.replaceSubrange(existing.line..<end, with: block)
                return Edit(text: lines.joined(separator: "\n"), remarks: remarks)
            }
            guard force else {
                throw NotesError.changelogSectionNotOurs(
                    path: displayPath, line: existing.line + 1, heading: existing.text)
            }
            lines.replaceSubrange(existing.line..<end, with: block)
            return Edit(text: lines.joined(separator: "\n"), remarks: remarks)
        }

        // The release ships what relctl listed as unreleased; a hand-written Unreleased section is kept.
        if notes.version != nil {
            for unreleased in document.headings.filter(\.isUnreleased).reversed() {
                if let generated = document.unchangedGeneratedSection(at: unreleased) {
                    var end = generated.upperBound + 1
                    while end < lines.count, lines[end].trimmingCharacters(in: .whitespaces).isEmpty { end += 1 }
                    lines.removeSubrange(generated.lowerBound..<end)
                } else {
                    remarks.append(
                        Diagnostic(
                            file: displayPath, line: unreleased.line + 1,
                            "`\(unreleased.text)` was not written by relctl and is kept as it is; move what ships in \(section.title) into the new section by hand",
                            severity: .warning))
                }
            }
            document = ChangelogDocument(lines: lines, format: format, names: names)
        }

        var at = insertionLine(for: notes.version, in: document)
        if document.headings.isEmpty {
            // A file with no title and no releases (an introduction only) gets the title relctl would create.
            lines.insert(contentsOf: title(format) + [""], at: 0)
            at += title(format).count + 1
        }
        var inserted = block
        if at < lines.count { inserted.append("") }
        if at > 0, !lines[at - 1].trimmingCharacters(in: .whitespaces).isEmpty { inserted.insert("", at: 0) }
        lines.insert(contentsOf: inserted, at: at)

        if let definition = section.definition {
            addDefinition(definition, version: notes.version, to: &lines)
        }
        return Edit(text: lines.joined(separator: "\n"), remarks: remarks)
    }

    /// Above the newest release older than this one (a changelog lists newest first), else below
    /// the last release; with no release yet, after the `Unreleased` sections, else at the end
    /// (before trailing link definitions).
    package static func insertionLine(for version: SemanticVersion?, in document: ChangelogDocument) -> Int {
        let releases = document.releaseHeadings
        if let version, let older = releases.first(where: { $0.version.map { $0 < version } ?? false }) {
            return older.line
        }
        if version == nil, let newest = releases.first { return newest.line }
        if let last = releases.last { return document.sectionEnd(of: last) }
        if let lastUnreleased = document.headings.last(where: \.isUnreleased) {
            return document.sectionEnd(of: lastUnreleased)
        }
        return document.trailingDefinitionsStart ?? document.lines.count
    }

    /// The style of the newest release heading; without one, relctl's layout at the level the
    /// `Unreleased` heading uses, or one below the title.
    /// In reStructuredText the headings are adorned as the file's release headings are (else with
    /// the next style the file does not use yet), never linked, and the notes' sections take the
    /// style of the level below (towncrier's `Features` under `-----`).
    package static func style(of document: ChangelogDocument) -> ChangelogHeadingStyle {
        var style = ChangelogHeadingStyle.standard
        if let newest = document.releaseHeadings.first {
            style = ChangelogHeadingStyle(learningFrom: newest)
        } else if let unreleased = document.headings.first(where: \.isUnreleased) {
            style.level = unreleased.level
        } else if let title = document.headings.first {
            style.level = min(title.level + 1, 6)
        }
        guard document.format == .restructuredText else { return style }
        style.link = .none
        let order: [Character] = ["=", "-", "~", "^", "\"", "'", "+", "*"]
        func unused(after used: [ChangelogDocument.RSTStyle]) -> ChangelogDocument.RSTStyle {
            let free = order.first { char in !used.contains { $0.adornment == char && !$0.overline } } ?? "~"
            return ChangelogDocument.RSTStyle(adornment: free, overline: false)
        }
        var styles = document.rstStyles
        if style.adornment == nil {
            let own = styles.indices.contains(style.level - 1) ? styles[style.level - 1] : unused(after: styles)
            (style.adornment, style.overline) = (own.adornment, own.overline)
            if !styles.contains(own) { styles.append(own) }
            style.level = (styles.firstIndex(of: own) ?? 0) + 1
        }
        let below = styles.indices.contains(style.level) ? styles[style.level] : unused(after: styles)
        style.sectionAdornment = below.adornment
        return style
    }

    /// The section's lines (heading first), its closing marker and, for link-reference headings,
    /// the definition to add.
    package static func render(
        _ notes: ReleaseNotes, style: ChangelogHeadingStyle, format: ChangelogDocument.Format = .markdown
    ) -> (
        lines: [String], marker: String, definition: String?, title: String
    ) {
        let versionText = notes.version.map { version in
            notes.tag.flatMap(spelledVersion(inTag:)) ?? version.description
        }
        let heading = style.heading(versionText: versionText, url: notes.compareURL, date: notes.date)
        var text =
            notes.customMarkdown
            ?? (format == .restructuredText
                ? NotesRST.render(
                    notes, heading: heading.lines.joined(separator: "\n"), sectionAdornment: style.sectionAdornment)
                : NotesMarkdown.render(
                    notes, heading: heading.lines.joined(separator: "\n"), sectionLevel: style.level + 1))
        while text.hasSuffix("\n") { text.removeLast() }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return (
            lines, ChangelogDocument.marker(for: lines.joined(separator: "\n") + "\n", format: format),
            heading.definition,
            versionText ?? "the release"
        )
    }

    /// The version as the tag writes it (`26.03` for calendar tag `26.03`, `1.2.0` for `v1.2.0`).
    package static func spelledVersion(inTag tag: String) -> String? {
        var rest = Substring(tag)
        while let first = rest.firstIndex(where: \.isNumber) {
            let candidate = rest[first...]
            if ChangelogHeading.versionMatch(in: String(candidate))?.spelled.count == candidate.count {
                return String(candidate)
            }
            rest = candidate.drop(while: \.isNumber)
        }
        return nil
    }

    /// Adds `[1.2.0]: url` among the file's version definitions (newest first), unless the label is defined.
    package static func addDefinition(_ definition: String, version: SemanticVersion?, to lines: inout [String]) {
        let document = ChangelogDocument(lines: lines)
        guard let label = ChangelogDocument.definitionLabel(Substring(definition)),
            !document.definitions.contains(where: { $0.label == label })
        else { return }
        let versioned = document.definitions.compactMap { definition in
            ChangelogHeading.versionMatch(in: definition.label).map { (version: $0.version, line: definition.line) }
        }
        // Earlier releases with `[1.0.0]` headings and no definitions: the file does not link its
        // versions, so neither does the new one (and its end, blank lines included, stays as it is).
        if versioned.isEmpty, document.releaseHeadings.count > 1 { return }
        if let version, let older = versioned.first(where: { $0.version < version }) {
            lines.insert(definition, at: older.line)
        } else if let last = versioned.last {
            lines.insert(definition, at: last.line + 1)
        } else {
            while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
            lines += ["", definition]
        }
    }

    /// Reads, updates and atomically rewrites the changelog file at `url` (inside `root`, the
    /// repository or project folder it must stay in); returns what the user should hear.
    public static func update(
        _ url: URL, in root: URL, with notes: ReleaseNotes, force: Bool, displayPath: String
    ) throws -> [Diagnostic] {
        try updateReporting(url, in: root, with: notes, force: force, displayPath: displayPath).remarks
    }

    /// `update`, also saying whether the file changed (a run that finds the section already there
    /// writes nothing, and says so). The changelog is read under the read rule (`ProjectFile`): one
    /// committed as a link leading outside `root` is refused (exit 2) before a byte of it is read,
    /// so an outside file's content never reaches a commit or the tree (issue 55, finding 1). The
    /// new text replaces the file at `url` (a link that stays inside is replaced by the file).
    public static func updateReporting(
        _ url: URL, in root: URL, with notes: ReleaseNotes, force: Bool, displayPath: String
    ) throws -> (remarks: [Diagnostic], changed: Bool) {
        let file = try ProjectFile.open(url.path, in: root, what: displayPath, shown: displayPath)
        let existing = file.data().map { String(decoding: $0, as: UTF8.self) }
        let edit = try insert(notes, into: existing, force: force, displayPath: displayPath)
        if edit.text != existing { try AtomicFile.write(edit.text, to: url) }
        return (edit.remarks, edit.text != existing)
    }
}
