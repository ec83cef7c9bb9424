import Foundation
import RelctlBasics

/// How a changelog writes the date in its release headings, so a new heading writes it the same way:
/// `2026-01-02`, `2026/01/02`, `2nd January, 2026` (httpx), `January 2, 2026`.
package enum ChangelogDateForm: Sendable, Equatable {
    case iso
    case slashed
    case dayMonthYear(ordinal: Bool, comma: Bool)
    case monthDayYear(ordinal: Bool)

    package static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// The first date in `text` and the form it is written in.
    package static func find(in text: Substring) -> (form: ChangelogDateForm, range: Range<Substring.Index>)? {
        let month = months.joined(separator: "|")
        let patterns: [(String, (AnyRegexOutput) -> ChangelogDateForm)] = [
            (#"[0-9]{4}-[0-9]{2}-[0-9]{2}"#, { _ in .iso }),
            (#"[0-9]{4}/[0-9]{2}/[0-9]{2}"#, { _ in .slashed }),
            (
                #"[0-9]{1,2}(st|nd|rd|th)? (\#(month))(,)? [0-9]{4}"#,
                { .dayMonthYear(ordinal: $0[1].range != nil, comma: $0[3].range != nil) }
            ),
            (#"(\#(month)) [0-9]{1,2}(st|nd|rd|th)?, [0-9]{4}"#, { .monthDayYear(ordinal: $0[2].range != nil) }),
        ]
        var best: (form: ChangelogDateForm, range: Range<Substring.Index>)?
        for (pattern, form) in patterns {
            guard let regex = try? Regex(pattern), let match = try? regex.firstMatch(in: text) else { continue }
            if let earlier = best, earlier.range.lowerBound <= match.range.lowerBound { continue }
            best = (form(match.output), match.range)
        }
        return best
    }

    /// `isoDate` (`YYYY-MM-DD`) written in this form.
    package func render(_ isoDate: String) -> String {
        let parts = isoDate.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return isoDate }
        let (year, month, day) = (parts[0], Self.months[parts[1] - 1], parts[2])
        switch self {
        case .iso: return isoDate
        case .slashed: return isoDate.replacingOccurrences(of: "-", with: "/")
        case let .dayMonthYear(ordinal, comma):
            return "\(day)\(ordinal ? Self.ordinalSuffix(day) : "") \(month)\(comma ? "," : "") \(year)"
        case let .monthDayYear(ordinal):
            return "\(month) \(day)\(ordinal ? Self.ordinalSuffix(day) : ""), \(year)"
        }
    }

    package static func ordinalSuffix(_ day: Int) -> String {
        if (11...13).contains(day % 100) { return "th" }
        switch day % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }
}
