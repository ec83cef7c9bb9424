import Foundation

/// `[windows]`: how Windows targets are signed and installed. Kept on its own so the Authenticode
/// signing (RelctlArtifacts/Signing/Authenticode) and the MSI writer (RelctlArtifacts/WindowsInstaller)
/// each read only their keys.
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

    /// The path of a PKCS#12 file (a CI secret written to a file), in place of `signing-key`.
    package static let keyVariable = "RELCTL_WINDOWS_KEY"
    /// The PKCS#12 file's password (empty when unset).
    package static let passwordVariable = "RELCTL_WINDOWS_KEY_PASSWORD"

    package init() {}

    /// Whether a key signs the Windows files: `signing-key` or `RELCTL_WINDOWS_KEY` is set.
    package func signs(environment: [String: String]) -> Bool {
        signingKey != nil || !(environment[Self.keyVariable] ?? "").isEmpty
    }
}
