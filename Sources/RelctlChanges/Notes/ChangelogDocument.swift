import Foundation
import RelctlBasics
import RelctlModel

/// The block structure of a changelog that relctl needs to edit it without touching anything it
/// did not write: headings (ATX and setext), link reference definitions, and relctl's digest
/// markers, ignoring whatever sits in fenced code or HTML comments (a `# comment` in a shell
/// example, a commented-out heading template).
package struct ChangelogDocument: Sendable {
    /// The changelog's markup, from its name: `.rst` (`CHANGELOG.rst`, towncrier's) is
    /// reStructuredText, anything else Markdown.
    package enum Format: Sendable, Equatable {
        case markdown, restructuredText

        package init(path: String) {
            let lower = path.lowercased()
            self = lower.hasSuffix(".rst") || lower.hasSuffix(".rest") ? .restructuredText : .markdown
        }
    }

    package var format: Format = .markdown
    /// The project's names a release heading may carry (`pytest 9.1.1`), lowercased.
    package var names: Set<String> = []
    /// reStructuredText title styles (adornment, overline) in the order the file first uses them:
    /// the index is the level, less one.
    package var rstStyles: [RSTStyle] = []
    /// The file's lines, LF-separated, without the final line break.
    package var lines: [String]
    package var headings: [ChangelogHeading] = []
    /// `[label]: destination` lines outside code, by lowercased label (first definition wins, as in CommonMark).
    package var definitions: [(label: String, line: Int)] = []
    /// Lines holding relctl's section marker (`<!-- relctl-digest: sha256:… -->`).
    package var markers: [Int] = []

    package static let markerPrefix = "<!-- relctl-digest: sha256:"
    package static let markerSuffix = " -->"
    /// The marker in reStructuredText: a comment, which renders as nothing.
    package static let rstMarkerPrefix = ".. relctl-digest: sha256:"

    package struct RSTStyle: Sendable, Equatable {
        package var adornment: Character
        package var overline: Bool
    }

    package init(lines: [String], format: Format = .markdown, names: Set<String> = []) {
        self.lines = lines
        self.format = format
        self.names = names
        if format == .restructuredText { scanRST() } else { scan() }
        for index in headings.indices { headings[index].names = names }
    }

    /// The marker line closing a section relctl wrote, covering `sectionText`.
    package static func marker(for sectionText: String, format: Format = .markdown) -> String {
        format == .restructuredText
            ? rstMarkerPrefix + GeneratedFile.digest(sectionText)
            : markerPrefix + GeneratedFile.digest(sectionText) + markerSuffix
    }

    /// The digest a marker line records, or nil when the line is no marker.
    package static func recordedDigest(_ line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix(rstMarkerPrefix) { return String(trimmed.dropFirst(rstMarkerPrefix.count)) }
        guard trimmed.hasPrefix(markerPrefix), trimmed.hasSuffix(markerSuffix) else { return nil }
        return String(trimmed.dropFirst(markerPrefix.count).dropLast(markerSuffix.count))
    }

    /// The adornment character of a reStructuredText title line (`=====`, `-----`), else nil.
    package static func rstAdornment(_ line: String) -> Character? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 3, line.first.map({ !$0.isWhitespace }) == true, let first = trimmed.first,
            "=-~^\"'`#*+.:_!<>$%&,;?@|/".contains(first), trimmed.allSatisfy({ $0 == first })
        else { return nil }
        return first
    }

    /// reStructuredText titles: a text line underlined (or over- and underlined) with one
    /// punctuation character as long as the text or four characters at least; levels in the order the styles first
    /// appear, as docutils numbers them. Indented lines (literal blocks, list bodies) are no titles.
    private mutating func scanRST() {
        func level(_ style: RSTStyle) -> Int {
            if let index = rstStyles.firstIndex(of: style) { return index + 1 }
            rstStyles.append(style)
            return rstStyles.count
        }
        func isText(_ line: String) -> Bool {
            !line.trimmingCharacters(in: .whitespaces).isEmpty && line.first.map({ !$0.isWhitespace }) == true
                && Self.rstAdornment(line) == nil
        }
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if Self.recordedDigest(line) != nil { markers.append(index) }
            if let over = Self.rstAdornment(line), index + 2 < lines.count,
                !lines[index + 1].trimmingCharacters(in: .whitespaces).isEmpty,
                Self.rstAdornment(lines[index + 2]) == over
            {
                let text = lines[index + 1].trimmingCharacters(in: .whitespaces)
                let style = RSTStyle(adornment: over, overline: true)
                var heading = ChangelogHeading(
                    line: index, lineCount: 3, level: level(style), text: text, isSetext: true)
                (heading.adornment, heading.overline) = (over, true)
                headings.append(heading)
                index += 3
                continue
            }
            // An underline shorter than its title still makes one when it has four characters,
            // as docutils reads it (with a warning): a long link heading's underline often is.
            if isText(line), index + 1 < lines.count, let under = Self.rstAdornment(lines[index + 1]),
                lines[index + 1].trimmingCharacters(in: .whitespaces).count
                    >= min(line.trimmingCharacters(in: .whitespaces).count, 4),
                index == 0 || lines[index - 1].trimmingCharacters(in: .whitespaces).isEmpty
            {
                let style = RSTStyle(adornment: under, overline: false)
                var heading = ChangelogHeading(
                    line: index, lineCount: 2, level: level(style), text: line.trimmingCharacters(in: .whitespaces),
                    isSetext: true)
                heading.adornment = under
                headings.append(heading)
                index += 2
                continue
            }
            index += 1
        }
    }

    /// Release headings in file order, at the highest level any has (a `### 1.2 notes` subsection
    /// under a release is not one).
    package var releaseHeadings: [ChangelogHeading] {
        let releases = headings.filter { $0.version != nil }
        guard let level = releases.map(\.level).min() else { return [] }
        return releases.filter { $0.level == level }
    }

    /// The line after a heading's section: the next heading of the same or a higher level, the
    /// trailing block of link definitions, or the end of the file.
    package func sectionEnd(of heading: ChangelogHeading) -> Int {
        let next = headings.first(where: { $0.line > heading.line && $0.level <= heading.level })?.line ?? lines.count
        if let trailing = trailingDefinitionsStart, trailing > heading.line { return min(next, trailing) }
        return next
    }

    /// Where the block of link reference definitions ending the file starts (Keep a Changelog's
    /// `[1.2.0]: https://…/compare/…` list), if the file ends with one.
    package var trailingDefinitionsStart: Int? {
        let definitionLines = Set(definitions.map(\.line))
        var start: Int?
        var index = lines.count - 1
        while index >= 0 {
            if definitionLines.contains(index) {
                start = index
            } else if !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                break
            }
            index -= 1
        }
        return start
    }

    /// The marker closing the section that starts at `heading`, when its digest still matches the
    /// lines from the heading to the marker: a section relctl wrote and nobody edited since.
    package func unchangedGeneratedSection(at heading: ChangelogHeading) -> ClosedRange<Int>? {
        let end = sectionEnd(of: heading)
        guard let marker = markers.last(where: { $0 > heading.line && $0 < end }),
            let recorded = Self.recordedDigest(lines[marker])
        else { return nil }
        var last = marker - 1
        while last > heading.line, lines[last].trimmingCharacters(in: .whitespaces).isEmpty { last -= 1 }
        let covered = lines[heading.line...last].joined(separator: "\n") + "\n"
        return GeneratedFile.digest(covered) == recorded ? heading.line...marker : nil
    }

    private mutating func scan() {
        var fence: (marker: Character, count: Int)?
        var inComment = false
        var paragraphStart: Int?
        for (index, raw) in lines.enumerated() {
            let indent = raw.prefix(while: { $0 == " " }).count
            let line = indent <= 3 ? raw.dropFirst(indent) : Substring("")
            if inComment {
                if raw.contains("-->") { inComment = false }
                paragraphStart = nil
                continue
            }
            if let open = fence {
                let run = line.prefix(while: { $0 == open.marker }).count
                if run >= open.count, line.dropFirst(run).allSatisfy(\.isWhitespace) { fence = nil }
                continue
            }
            if raw.trimmingCharacters(in: .whitespaces).isEmpty || indent > 3 {
                if indent > 3 && paragraphStart != nil { continue }  // a paragraph's continuation line
                paragraphStart = nil
                continue
            }
            if let first = line.first, first == "`" || first == "~" {
                let run = line.prefix(while: { $0 == first }).count
                if run >= 3, first == "~" || !line.dropFirst(run).contains("`") {
                    fence = (first, run)
                    paragraphStart = nil
                    continue
                }
            }
            if line.hasPrefix("<!--") {
                if Self.recordedDigest(raw) != nil { markers.append(index) }
                if !line.dropFirst(4).contains("-->") { inComment = true }
                paragraphStart = nil
                continue
            }
            let hashes = line.prefix(while: { $0 == "#" }).count
            if (1...6).contains(hashes), line.dropFirst(hashes).first.map({ $0 == " " || $0 == "\t" }) ?? true {
                var text = line.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
                // A closing sequence of #s is not part of the text.
                let closing = text.reversed().prefix(while: { $0 == "#" }).count
                if closing > 0, closing == text.count || text.dropLast(closing).last == " " {
                    text = String(text.dropLast(closing)).trimmingCharacters(in: .whitespaces)
                }
                headings.append(ChangelogHeading(line: index, lineCount: 1, level: hashes, text: text, isSetext: false))
                paragraphStart = nil
                continue
            }
            if let start = paragraphStart, let first = line.first, first == "=" || first == "-",
                line.trimmingCharacters(in: .whitespaces).allSatisfy({ $0 == first })
            {
                let text = lines[start..<index].map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                headings.append(
                    ChangelogHeading(
                        line: start, lineCount: index - start + 1, level: first == "=" ? 1 : 2, text: text,
                        isSetext: true))
                paragraphStart = nil
                continue
            }
            if let label = Self.definitionLabel(line) {
                if !definitions.contains(where: { $0.label == label }) { definitions.append((label, index)) }
                paragraphStart = nil
                continue
            }
            if paragraphStart == nil, !Self.startsNonParagraphBlock(line) { paragraphStart = index }
            if Self.startsNonParagraphBlock(line) { paragraphStart = nil }
        }
    }

    /// Lists, quotes, tables and thematic breaks are not paragraph text a setext underline could turn into a heading.
    private static func startsNonParagraphBlock(_ line: Substring) -> Bool {
        guard let first = line.first else { return true }
        let compact = line.filter { $0 != " " && $0 != "\t" }
        if compact.count >= 3, let mark = compact.first, "-*_".contains(mark), compact.allSatisfy({ $0 == mark }) {
            return true
        }
        if "-*+".contains(first), line.dropFirst().first.map({ $0 == " " || $0 == "\t" }) ?? true { return true }
        if first == ">" || first == "|" || first == "<" { return true }
        let digits = line.prefix(while: \.isNumber)
        // `1. item` is a list; `0.2.0` is text (a list marker is followed by a space or the line end).
        let afterDigits = line.dropFirst(digits.count)
        if !digits.isEmpty, digits.count <= 9, let mark = afterDigits.first, mark == "." || mark == ")",
            afterDigits.dropFirst().first.map({ $0 == " " || $0 == "\t" }) ?? true
        {
            return true
        }
        return false
    }

    /// `[label]: destination` → `label` lowercased; nil for any other line.
    package static func definitionLabel(_ line: Substring) -> String? {
        guard line.first == "[", let close = line.firstIndex(of: "]") else { return nil }
        let afterClose = line[line.index(after: close)...]
        guard afterClose.hasPrefix(":"), afterClose.dropFirst().contains(where: { !$0.isWhitespace }) else {
            return nil
        }
        let label = line[line.index(after: line.startIndex)..<close]
        guard !label.isEmpty else { return nil }
        return label.lowercased()
    }
}
