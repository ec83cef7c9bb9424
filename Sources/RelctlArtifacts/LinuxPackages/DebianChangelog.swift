import Foundation
import RelctlBasics

/// The package's `changelog.gz` in Debian changelog format (Debian Policy 4.4), one entry for this
/// release whose items are the release notes' entries; dated with the release's time, never the
/// clock, and gzipped without a name or time so the bytes repeat.
package enum DebianChangelog {
    package static func render(_ spec: LinuxPackageSpec) -> String {
        var lines = ["\(spec.name) (\(spec.version.debian)) unstable; urgency=medium", ""]
        let changes = spec.changes.isEmpty ? ["Release \(spec.version.debian)."] : spec.changes
        for change in changes { lines += wrap(change, first: "  * ", rest: "    ") }
        lines += ["", " -- \(spec.metadata.maintainer)  \(date(spec.mtime))"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// RFC 5322 date in UTC (`Mon, 23 Nov 2026 02:30:00 +0000`), as `dpkg-parsechangelog` reads it.
    package static func date(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Words on lines of at most 80 characters (lintian's limit), the first with `first` before it.
    package static func wrap(_ text: String, first: String, rest: String, width: Int = 80) -> [String] {
        var lines: [String] = []
        var current = first
        for word in text.split(whereSeparator: \.isWhitespace) {
            let prefixOnly = current == first || current == rest
            if !prefixOnly, current.count + 1 + word.count > width {
                lines.append(current)
                current = rest + word
            } else {
                current += (prefixOnly ? "" : " ") + word
            }
        }
        lines.append(current)
        return lines
    }
}
