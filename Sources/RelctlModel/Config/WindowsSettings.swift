import Foundation

/// `[windows]`: what a release makes for its Windows targets. `msi` writes one MSI installer per
/// Windows target (RelctlArtifacts/WindowsInstaller); `signing-key` (a PKCS#12 file, relative to
/// the project root) and `timestamp-url` (RFC 3161) sign what Windows users run.
package struct WindowsSettings: Sendable, Equatable {
    /// `msi = true`: one `.msi` per Windows target.
    package var msi: Bool = false
    /// `signing-key`: the PKCS#12 file that signs the executables and the MSI.
    package var signingKey: String?
    /// `timestamp-url`: the RFC 3161 time-stamping authority asked to countersign.
    package var timestampURL: String?
    /// The table's line in relctl.toml, for messages.
    package var line: Int?

    /// The key's bytes as base64 (CI keeps it in a secret, not a file); wins over `signing-key`.
    package static let keyVariable = "RELCTL_WINDOWS_KEY"
    /// The PKCS#12 file's password (empty when unset).
    package static let passwordVariable = "RELCTL_WINDOWS_KEY_PASSWORD"

    package init() {}

    /// Whether a key signs the Windows files: `signing-key` or `RELCTL_WINDOWS_KEY` is set.
    package func signs(environment: [String: String]) -> Bool {
        signingKey != nil || !(environment[Self.keyVariable] ?? "").isEmpty
    }
}
