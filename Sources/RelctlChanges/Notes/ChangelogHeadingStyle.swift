import Foundation
import RelctlBasics

/// How a changelog writes its release headings, learnt from its newest one, so the section relctl
/// adds looks like its neighbours: the level (`#` for fd, `##` for Keep a Changelog), setext
/// underlines (ripgrep), a word before the version (`Version 8.5.0`), a `v`, brackets with an
/// inline link or a link reference defined at the bottom, and the date's place and form.
package struct ChangelogHeadingStyle: Sendable, Equatable {
    package enum Link: Sendable, Equatable {
        /// `1.2.0`
        case none
        /// `[1.2.0](https://…/compare/…)`
        case inline
        /// `[1.2.0]` with `[1.2.0]: https://…` among the file's link definitions.
        case reference
    }

    package var level = 2
    package var isSetext = false
    /// A word before the version (`Version `).
    package var prefix = ""
    package var hasV = false
    package var link = Link.inline
    /// Nil when the headings carry no date.
    package var date: ChangelogDateForm? = .iso
    package var beforeDate = " - "
    package var afterDate = ""
    /// reStructuredText: the release heading's adornment (and overline), and the one its sections
    /// use (`Features` underlined with `-` in towncrier's changelogs).
    package var adornment: Character? = nil
    package var overline = false
    package var sectionAdornment: Character = "-"

    /// relctl's own layout, for a changelog with no release heading to learn from.
    package static let standard = ChangelogHeadingStyle()

    package init() {}

    /// The style of `heading` (a release heading). Parts it cannot read safely (text around the
    /// date that is more than punctuation, a date in an unknown form) fall back to relctl's layout.
    package init(learningFrom heading: ChangelogHeading) {
        level = heading.level
        isSetext = heading.isSetext
        adornment = heading.adornment
        overline = heading.overline
        guard let match = ChangelogHeading.versionMatch(in: heading.text, names: heading.names) else { return }
        hasV = match.hasV
        var prefixText = match.prefix
        var rest = match.rest
        if prefixText.last == "[" {
            prefixText = prefixText.dropLast()
            guard rest.first == "]" else { return }
            rest = rest.dropFirst()
            if rest.first == "(", let close = rest.firstIndex(of: ")") {
                link = .inline
                rest = rest[rest.index(after: close)...]
            } else {
                link = .reference
            }
        } else if prefixText.last == "`" {
            // A reStructuredText link (pyjwt's `` `v2.10.1 <…/compare/2.10.0...2.10.1>`__ ``): a
            // new heading names its version plainly, not the old heading's link.
            prefixText = prefixText.dropLast()
            link = .none
            guard let close = rest.range(of: "`_") else { return }
            rest = rest[close.upperBound...].drop { $0 == "_" }
        } else {
            link = .none
        }
        prefix = String(prefixText)
        let isPunctuation: (Substring) -> Bool = { !$0.contains(where: { $0.isLetter || $0.isNumber }) }
        if let found = ChangelogDateForm.find(in: rest) {
            let before = rest[..<found.range.lowerBound]
            let after = rest[found.range.upperBound...]
            guard isPunctuation(before), isPunctuation(after) else { return }
            date = found.form
            beforeDate = String(before)
            afterDate = String(after)
        } else if isPunctuation(rest) {
            date = nil
            beforeDate = ""
            afterDate = String(rest)
        }
    }

    /// The heading lines for a release (`versionText`, as the tag spells it) or for unreleased
    /// changes (nil), and the link definition to add for the reference style.
    package func heading(
        versionText: String?, url: String?, date isoDate: String
    ) -> (lines: [String], definition: String?) {
        var text: String
        var definition: String?
        if let versionText {
            let label = (hasV ? "v" : "") + versionText
            switch link {
            case .none: text = label
            case .inline: text = url.map { "[\(label)](\($0))" } ?? label
            case .reference:
                text = "[\(label)]"
                definition = url.map { "[\(label)]: \($0)" }
            }
            text = prefix + text
        } else {
            text = link == .none ? "Unreleased" : "[Unreleased]"
            if self == .standard { text = "Unreleased" }
        }
        if let date { text += beforeDate + date.render(isoDate) + afterDate } else { text += afterDate }
        if let adornment {
            let line = String(repeating: adornment, count: max(text.count, 3))
            return ((overline ? [line] : []) + [text, line], nil)
        }
        if isSetext, level <= 2 {
            return ([text, String(repeating: level == 1 ? "=" : "-", count: max(text.count, 3))], definition)
        }
        return ([String(repeating: "#", count: level) + " " + text], definition)
    }
}
