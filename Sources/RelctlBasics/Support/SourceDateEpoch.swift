/// `SOURCE_DATE_EPOCH` as the reproducible-builds spec defines it: whole seconds since 1970.
/// Builds, archives and releases read it through here so a bad value fails before any work
/// starts instead of reaching a build script or stopping a release at the packaging step.
package enum SourceDateEpoch {
    /// The value from `environment`, nil when unset or empty; bad input (exit 2) when not a number.
    package static func from(_ environment: [String: String]) throws -> Int? {
        guard let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw EnvironmentError.sourceDateEpochNotANumber(text)
        }
        // Past 11 octal digits (the year 2242) GNU tar refuses the archive and bsdtar crashes.
        guard value <= maximum else {
            throw EnvironmentError.sourceDateEpochTooLate(value, maximum: maximum)
        }
        return value
    }

    /// The latest time every tar reader handles: 8^11 - 1 seconds, the ustar header's limit.
    package static let maximum = 8_589_934_591
}
