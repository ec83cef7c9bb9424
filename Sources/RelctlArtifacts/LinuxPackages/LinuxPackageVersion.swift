import Foundation
import RelctlBasics

/// A release version spelled for Debian and RPM so that their own comparisons order releases as
/// SemVer does: a prerelease sorts before its release because `-` becomes `~`, which both dpkg and
/// rpm (4.10 and later) sort before everything, even the end of the string.
///
/// SemVer allows `-` inside prerelease identifiers (`1.0.0-alpha-1`); Debian reads a hyphen as
/// the start of the package revision and RPM forbids it, so it becomes `.`. One ordering differs
/// and cannot be spelled away: SemVer sorts a numeric identifier before an alphanumeric one
/// (`1.0.0-alpha.1` < `1.0.0-alpha.beta`), rpm sorts numbers after letters; dpkg agrees with SemVer.
package struct LinuxPackageVersion: Sendable, Equatable {
    /// The Debian upstream version (`1.2.0~rc.1`); a native package, so no revision.
    package var debian: String
    /// RPM's `Version` (`1.2.0~rc.1`).
    package var rpm: String

    package init(_ version: String) {
        var core = Substring(version)
        var build = ""
        if let plus = core.firstIndex(of: "+") {
            build = String(core[plus...])
            core = core[..<plus]
        }
        var text = String(core)
        if let dash = core.firstIndex(of: "-") {
            let prerelease = core[core.index(after: dash)...].replacingOccurrences(of: "-", with: ".")
            text = String(core[..<dash]) + "~" + prerelease
        }
        debian = text + build.replacingOccurrences(of: "-", with: ".")
        // rpm treats `+` as a separator too; `-` is forbidden in Version.
        rpm = text + build.replacingOccurrences(of: "-", with: ".")
    }

    /// Characters each tool accepts in the version (checked so a calendar or custom scheme with
    /// odd characters fails before a package is written).
    package static func problem(in text: String) -> String? {
        guard let first = text.unicodeScalars.first, ("0"..."9").contains(first) else {
            return "does not start with a digit, as Debian versions must"
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+~_")
        if let bad = text.first(where: { !allowed.contains($0) }) {
            return "holds `\(bad)`, which Debian or RPM versions cannot"
        }
        return nil
    }
}
