import Foundation
import RelctlBasics
import RelctlModel

/// `[windows]`: the Authenticode key, the time-stamping authority and the MSI switch.
extension ConfigLoader {
    package static func readWindows(_ table: TableReader) -> WindowsSettings {
        var windows = WindowsSettings()
        windows.line = table.line
        if let path = table.string("signing-key") {
            if path.isEmpty {
                table.report(
                    "signing-key",
                    "`windows.signing-key` must be the path of a PKCS#12 file (.p12/.pfx) relative to the project root")
            } else {
                windows.signingKey = path
            }
        }
        if let text = table.string("timestamp-url") {
            if let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                let host = url.host, !host.isEmpty
            {
                windows.timestampURL = url
            } else {
                table.report(
                    "timestamp-url",
                    "`windows.timestamp-url` must be an http:// or https:// URL of an RFC 3161 time-stamping authority (e.g. \"http://timestamp.digicert.com\"), found `\(text)`"
                )
            }
        }
        if let msi = table.bool("msi") { windows.msi = msi }
        table.finish()
        return windows
    }
}
