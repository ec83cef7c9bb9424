import Foundation
import RelctlBasics
import RelctlModel

/// A heading of a changelog, with the release it names, if any: Markdown (ATX `## 1.2.0` or setext
/// `1.2.0` underlined with `---`) or reStructuredText (a title underlined, or over- and underlined,
/// with one punctuation character: towncrier's `pytest 9.1.1 (2026-06-19)` over `=====`).
package struct ChangelogHeading: Sendable, Equatable {
    /// Index of the heading's first line (the text line of a setext heading).
    package var line: Int
    /// 1 for ATX, the paragraph lines + the underline for setext.
    package var lineCount: Int
    package var level: Int
    /// The heading's text, without `#` marks or underline.
    package var text: String
    package var isSetext: Bool
    /// reStructuredText: the adornment character and whether the title has an overline too.
    package var adornment: Character? = nil
    package var overline = false
    /// The project's names (lowercased) a release heading may carry before its version
    /// (`pytest 9.1.1`): a heading such as `Python 3.12 support` still names no release.
    package var names: Set<String> = []

    /// The release version the heading names (`[1.2.0] - date`, `v10.2.0`, `Version 8.5.0`, `25.07`,
    /// `v2.14.0b1`).
    package var version: SemanticVersion? { Self.versionMatch(in: text, names: names).map(\.version) }

    /// `Unreleased`, `[Unreleased]`, `UNRELEASED`, `Upcoming release`: changes not yet released.
    package var isUnreleased: Bool {
        let words = text.lowercased().drop(while: { $0 == "[" || $0 == "`" || $0 == " " })
        return words.hasPrefix("unreleased") || words.hasPrefix("upcoming")
    }

    /// Where the version sits in a heading text, and what surrounds it.
    package struct VersionMatch: Sendable, Equatable {
        /// Text before the version (`Version `, `[`, ``), `v` excluded.
        package var prefix: Substring
        /// True when the version is written `v1.2.0`.
        package var hasV: Bool
        /// The version as written (`25.07`, `1.2.0-rc.1`).
        package var spelled: Substring
        package var version: SemanticVersion
        /// Everything after the version (`] - 2026-01-02`, ` (6th December, 2024)`).
        package var rest: Substring
    }

    /// Words a changelog may write before a release's version.
    /// awaitility's changelog.txt heads each release `Changelog 4.3.0 (2025-02-21)`.
    package static let versionWords: Set<String> = ["version", "release", "ver.", "ver", "v.", "changelog"]

    /// pylint's and astroid's `What's New in astroid 4.3.0?`: the words before the version name
    /// one of the project's `names` (or say `version`) after "what's new in".
    static func isWhatsNew(_ word: String, names: Set<String>) -> Bool {
        let word = word.replacingOccurrences(of: "\u{2019}", with: "'")
        guard word.hasPrefix("what's new in ") else { return false }
        let rest = String(word.dropFirst("what's new in ".count))
        return names.contains(rest) || versionWords.contains(rest)
    }

    /// Finds the version a release heading names: an optional `Version`/`Release` word or one of
    /// the project's `names` (`pytest 9.1.1`) or a bracket, an optional `v`, then two or more
    /// dot-separated numbers, at the start of the heading; a heading such as `Python 3.12 support`
    /// or `Release 10 notes` is not a release.
    package static func versionMatch(in text: String, names: Set<String> = []) -> VersionMatch? {
        let body = Substring(text)
        guard let first = body.firstIndex(where: \.isNumber) else { return nil }
        var prefix = body[..<first]
        var hasV = false
        if prefix.last == "v" || prefix.last == "V" {
            let beforeV = prefix.dropLast()
            if beforeV.isEmpty || beforeV.last == " " || beforeV.last == "[" || beforeV.last == "`" {
                hasV = true
                prefix = beforeV
            }
        }
        // A prefix is `Version ` or `Release ` and/or an opening bracket, or the backquote of a
        // reStructuredText link (pyjwt's `` `v2.10.1 <…/compare/2.10.0...2.10.1>`__ ``):
        // `Python 3.12 support` is no release.
        let word = prefix.filter { $0 != "[" && $0 != "`" }.trimmingCharacters(in: .whitespaces).lowercased()
        guard word.isEmpty || Self.versionWords.contains(word) || names.contains(word) || Self.isWhatsNew(word, names: names)
        else { return nil }
        guard hasV || prefix.isEmpty || prefix.last == " " || prefix.last == "[" || prefix.last == "`" else { return nil }
        let tail = body[first...]
        var end = tail.startIndex
        var dots = 0
        // Core numbers, then an optional SemVer prerelease/build.
        while end < tail.endIndex,
            tail[end].isNumber || (tail[end] == "." && tail[tail.index(after: end)...].first?.isNumber == true)
        {
            if tail[end] == "." { dots += 1 }
            end = tail.index(after: end)
        }
        guard dots >= 1 else { return nil }
        // A PEP 440 prerelease, dev or post-release (pydantic's `## v2.14.0b1 (2026-08-06)`).
        if end < tail.endIndex,
            tail[end].isLetter || (tail[end] == "." && tail[tail.index(after: end)...].first?.isLetter == true)
        {
            var cursor = end
            while cursor < tail.endIndex, tail[cursor].isLetter || tail[cursor].isNumber || tail[cursor] == "." {
                cursor = tail.index(after: cursor)
            }
            while cursor > end, tail[tail.index(before: cursor)] == "." { cursor = tail.index(before: cursor) }
            let token = tail[..<cursor]
            // With its number, as PEP 440 tags spell it: `1.2.0beta` is no release heading.
            if token.last?.isNumber == true,
                let version = PEP440Version(String(token))?.semanticReading(allowingPost: true),
                tail[cursor...].first.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true
            {
                return VersionMatch(prefix: prefix, hasV: hasV, spelled: token, version: version, rest: tail[cursor...])
            }
        }
        if end < tail.endIndex, tail[end] == "-" || tail[end] == "+" {
            var cursor = tail.index(after: end)
            while cursor < tail.endIndex, tail[cursor].isLetter || tail[cursor].isNumber || "-.+".contains(tail[cursor])
            {
                cursor = tail.index(after: cursor)
            }
            while cursor > end, ".-+".contains(tail[tail.index(before: cursor)]) { cursor = tail.index(before: cursor) }
            if cursor > tail.index(after: end) { end = cursor }
        }
        let spelled = tail[..<end]
        let version: SemanticVersion
        if let semver = try? SemanticVersion(parsing: String(spelled)) {
            version = semver
        } else if let calendar = try? VersionScheme.calendarVersion(String(spelled)) {
            version = calendar
        } else {
            return nil
        }
        // `1.2.0beta` or `1.2.0_x` is not a version followed by text.
        if let next = tail[end...].first, next.isLetter || next.isNumber || next == "_" { return nil }
        return VersionMatch(prefix: prefix, hasV: hasV, spelled: spelled, version: version, rest: tail[end...])
    }
}
