import Foundation
import RelctlBasics
import RelctlModel

/// `[windows]`: `msi`, `signing-key`, `timestamp-url`.
extension ConfigLoader {
    package static func readWindows(_ table: TableReader) -> WindowsSettings {
        var settings = WindowsSettings()
        settings.line = table.line
        if let msi = table.bool("msi") { settings.msi = msi }
        if let key = table.string("signing-key") {
            if key.isEmpty {
                table.report(
                    "signing-key", "`[windows] signing-key` must be a PKCS#12 file path (relative to the project root)")
            } else {
                settings.signingKey = key
            }
        }
        if let url = table.string("timestamp-url") {
            if (url.hasPrefix("http://") || url.hasPrefix("https://")),
                !url.contains(where: { $0.isWhitespace || $0.isNewline || "\"'`$\\".contains($0) })
            {
                settings.timestampURL = url
            } else {
                table.report(
                    "timestamp-url",
                    "`[windows] timestamp-url` must be the http(s) URL of an RFC 3161 time-stamping authority, without blanks or quotes (e.g. \"http://timestamp.digicert.com\")"
                )
            }
        }
        table.finish()
        return settings
    }
}
