import RelctlBasics

/// How the versions in tags are written and ordered (`[project] version-scheme`).
package enum VersionScheme: String, Sendable, Hashable, CaseIterable {
    /// SemVer 2.0.0, strictly (the default).
    case semver
    /// Calendar versions (`25.07`, `25.07.1`, `2024.1.2`): two or three numbers, leading zeros
    /// allowed, compared numerically per number; a missing third number is 0. An optional SemVer
    /// prerelease and build part may follow.
    case calver

    /// Parses a calendar version into the SemVer value relctl compares with (`25.07` → 25.7.0),
    /// or explains what is wrong.
    package static func calendarVersion(_ text: String) throws -> SemanticVersion {
        var core = Substring(text)
        var rest = ""
        if let cut = core.firstIndex(where: { $0 == "-" || $0 == "+" }) {
            rest = String(core[cut...])
            core = core[..<cut]
        }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard (2...3).contains(numbers.count) else {
            throw VersionError.malformed(
                text, "a calendar version has two or three numbers (25.07 or 25.07.1), found \(numbers.count)")
        }
        var trimmed: [String] = []
        for part in numbers {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw VersionError.malformed(text, "`\(part)` is not a number")
            }
            let digits = part.drop(while: { $0 == "0" })
            trimmed.append(digits.isEmpty ? "0" : String(digits))
        }
        if trimmed.count == 2 { trimmed.append("0") }
        return try SemanticVersion(parsing: trimmed.joined(separator: ".") + rest)
    }

    /// How existing calendar tags are spelled, so a computed one looks like them: the month
    /// padded to two digits (`25.07`), a zero third number left out (`25.07` for 25.7.0), and a
    /// third number padded too where it is a day (certifi's `2015.09.06`).
    package struct CalendarSpelling: Sendable, Hashable {
        package var padsMinor = false
        package var omitsZeroPatch = false
        /// The third number is a zero-padded day of the month.
        package var padsPatch = false
        /// The third number is the day of the month, unpadded (Xray-core's `26.4.15`, `26.4.17`,
        /// `26.4.25`): no release numbered 0, and days past the twelfth.
        package var unpaddedDays = false

        /// Whether the third number names the day the release was made.
        package var namesDay: Bool { padsPatch || unpaddedDays }

        package init(padsMinor: Bool = false, omitsZeroPatch: Bool = false, padsPatch: Bool = false) {
            self.padsMinor = padsMinor
            self.omitsZeroPatch = omitsZeroPatch
            self.padsPatch = padsPatch
        }

        /// Learnt from the inner version texts of existing tags (or a manifest's version).
        package init(learningFrom texts: [String]) {
            // Padding where most texts that could show it do: pipenv's one `2018.05.18` among
            // some 410 `2026.8.1`-like tags does not pad its next.
            // A zero third number left out where most texts that could show it do: dask's one
            // `1.0` (from a history it merged) among some 335 `2026.8.0`-like tags keeps the `.0`.
            var (paddedMinor, bareMinor, paddedPatch, barePatch) = (0, 0, 0, 0)
            var (twoNumbers, zeroPatch) = (0, 0)
            // Only calendar-shaped texts (a year of two or four digits first) show the calendar's
            // spelling: supervisor's 99 SemVer-era `0.1` … `0.117` left out the third number its 273
            // calendar tags (`2026.06.0`) all write.
            let calendarShaped = texts.filter { text in
                let year = text.prefix(while: { $0 != "." })
                return year.count >= 2 && year.first != "0" && year.allSatisfy(\.isNumber)
            }
            for text in calendarShaped.isEmpty ? texts : calendarShaped {
                let numbers = text.prefix(while: { $0 != "-" && $0 != "+" }).split(separator: ".")
                if numbers.count == 2 { twoNumbers += 1 }
                if numbers.count == 3, numbers[2].allSatisfy({ $0 == "0" }) { zeroPatch += 1 }
                if numbers.count >= 2, numbers[1].count == 2, numbers[1].first == "0" { paddedMinor += 1 }
                if numbers.count >= 2, numbers[1].count == 1 { bareMinor += 1 }
                if numbers.count == 3, numbers[2].count == 2, numbers[2].first == "0" { paddedPatch += 1 }
                if numbers.count == 3, numbers[2].count == 1 { barePatch += 1 }
            }
            padsMinor = paddedMinor > bareMinor
            padsPatch = paddedPatch > barePatch
            omitsZeroPatch = twoNumbers > zeroPatch
            // A counter starts at 0 (black's 24.10.0, then 24.10.1); a day never does, and days
            // reach past the twelfth: five releases at least, none numbered 0, three distinct
            // third numbers above 12.
            let thirds = calendarShaped.compactMap { text -> Int? in
                let numbers = text.prefix(while: { $0 != "-" && $0 != "+" }).split(separator: ".")
                return numbers.count == 3 ? Int(numbers[2]) : nil
            }
            unpaddedDays =
                !padsPatch && thirds.count >= 5 && thirds.allSatisfy { (1...31).contains($0) }
                && Set(thirds.filter { $0 > 12 }).count >= 3
        }

        /// Whether `text` (spelled this way) shows it does not pad where `other` does: a
        /// one-digit month or third number written without its zero. Such a file keeps its own spelling.
        package func contradicts(_ other: CalendarSpelling, in text: String) -> Bool {
            let numbers = text.prefix(while: { $0 != "-" && $0 != "+" }).split(separator: ".")
            if other.padsMinor, numbers.count >= 2, numbers[1].count == 1 { return true }
            if other.padsPatch, numbers.count == 3, numbers[2].count == 1 { return true }
            return false
        }

        /// Both spellings' paddings (a manifest's text and the tags' may each show only some).
        package mutating func merge(_ other: CalendarSpelling) {
            padsMinor = padsMinor || other.padsMinor
            omitsZeroPatch = omitsZeroPatch || other.omitsZeroPatch
            padsPatch = padsPatch || other.padsPatch
            unpaddedDays = (unpaddedDays || other.unpaddedDays) && !padsPatch
        }

        package func spell(_ version: SemanticVersion) -> String {
            var text =
                version.major + "." + (padsMinor && version.minor.count == 1 ? "0" + version.minor : version.minor)
            if padsPatch, !(omitsZeroPatch && version.patch == "0") {
                text += "." + (version.patch.count == 1 ? "0" + version.patch : version.patch)
            } else if !(omitsZeroPatch && version.patch == "0") {
                text += "." + version.patch
            }
            if !version.prerelease.isEmpty {
                text += "-" + version.prerelease.map(\.description).joined(separator: ".")
            }
            if !version.build.isEmpty { text += "+" + version.build.joined(separator: ".") }
            return text
        }
    }
}
