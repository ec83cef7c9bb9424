import Foundation

/// Keeps a `CHANGELOG.md`: a release's section goes below the title (before older releases),
/// replacing an earlier section for the same release (so running twice changes nothing) or the
/// `Unreleased` section the release now ships.
public enum Changelog {
    static let defaultTitle = "# Changelog"

    /// Returns the new file text with `section` (starting with a `## ` heading) inserted or replaced.
    /// A CRLF file stays CRLF (Swift sees `"\r\n"` as one character, so lines are found on LF text).
    static func insert(_ section: String, into existing: String?) -> String {
        guard let existing, existing.contains("\r\n") else { return insertLF(section, into: existing) }
        let updated = insertLF(section, into: existing.replacingOccurrences(of: "\r\n", with: "\n"))
        return updated.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
    }

    private static func insertLF(_ section: String, into existing: String?) -> String {
        var sectionText = section
        while sectionText.hasSuffix("\n\n") { sectionText.removeLast() }
        if !sectionText.hasSuffix("\n") { sectionText += "\n" }
        let key = sectionText.split(separator: "\n", maxSplits: 1).first.map { Self.key(ofHeading: $0) } ?? nil
        guard let existing, !existing.isEmpty else { return defaultTitle + "\n\n" + sectionText }
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let headings = lines.indices.filter { lines[$0].hasPrefix("## ") }
        // A release replaces its own earlier section, or else the "Unreleased" section it now ships.
        let existingKeys = headings.map { Self.key(ofHeading: lines[$0][...]) }
        let replaceKey =
            existingKeys.contains(key) ? key : (key != nil && existingKeys.contains("unreleased") ? "unreleased" : nil)
        if let replaceKey, let start = headings.first(where: { Self.key(ofHeading: lines[$0][...]) == replaceKey }) {
            let end = headings.first(where: { $0 > start }) ?? lines.count
            var replacement = sectionText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if replacement.last == "" { replacement.removeLast() }
            if end < lines.count { replacement.append("") }
            lines.replaceSubrange(start..<end, with: replacement)
            return lines.joined(separator: "\n") + "\n"
        }
        let insertAt: Int
        if let first = headings.first {
            insertAt = first
        } else if lines.contains(where: { $0.hasPrefix("# ") }) {
            insertAt = lines.count
        } else {
            lines.insert(contentsOf: [defaultTitle, ""], at: 0)
            insertAt = lines.count
        }
        var block = sectionText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if block.last == "" { block.removeLast() }
        if insertAt < lines.count { block.append("") }
        if insertAt > 0, !lines[insertAt - 1].trimmingCharacters(in: .whitespaces).isEmpty { block.insert("", at: 0) }
        lines.insert(contentsOf: block, at: insertAt)
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a `## ` heading names: `## [1.2.0](…) - date` → `1.2.0`, `## Unreleased` → `unreleased`.
    static func key(ofHeading line: Substring) -> String? {
        guard line.hasPrefix("## ") else { return nil }
        var rest = line.dropFirst(3).drop(while: { $0 == " " || $0 == "[" })
        if let end = rest.firstIndex(where: { $0 == "]" || $0 == " " || $0 == "(" }) { rest = rest[..<end] }
        let key = rest.lowercased()
        return key.hasPrefix("v") && key.dropFirst().first?.isNumber == true ? String(key.dropFirst()) : key
    }

    /// Reads, updates and atomically rewrites the changelog file.
    public static func update(_ url: URL, with section: String) throws {
        let existing = FileSystem.contents(of: url).map { String(decoding: $0, as: UTF8.self) }
        let updated = insert(section, into: existing)
        if updated != existing { try AtomicFile.write(updated, to: url) }
    }
}
