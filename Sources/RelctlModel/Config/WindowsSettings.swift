import Foundation

/// `[windows]`: how Windows targets are signed and installed. Kept on its own so the Authenticode
/// signing and the MSI writer each read only their keys.
package struct WindowsSettings: Sendable, Equatable {
    /// `signing-key`: a PKCS#12 file inside the project (its password in
    /// `RELCTL_WINDOWS_KEY_PASSWORD`); `RELCTL_WINDOWS_KEY` (a path) takes its place when set.
    package var signingKey: String?
    /// `timestamp-url`: an RFC 3161 time-stamping authority; nil signs without a timestamp
    /// (reproducible bytes).
    package var timestampURL: URL?
    /// `msi`: one MSI installer per Windows target.
    package var msi: Bool = false
    /// The `[windows]` header's line, for messages.
    package var line: Int?

    package init() {}
}
