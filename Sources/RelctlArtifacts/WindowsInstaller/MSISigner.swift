import Foundation
import RelctlBasics
import RelctlModel

/// Signs a finished MSI: Authenticode over the compound file, which relctl's own PE signer does not
/// cover. A protocol, so whoever holds the Windows key settings hands the builder one signer.
package protocol MSISigning: Sendable {
    /// Writes the signed form of `input` to `output` (a new file).
    func sign(_ input: URL, to output: URL, context: Context) async throws
}

/// `osslsigncode sign -pkcs12 KEY -readpass FILE -h sha256 [-ts URL]`: the key is the PKCS#12 of
/// `[windows] signing-key` (or the file `RELCTL_WINDOWS_KEY` names), its password
/// `RELCTL_WINDOWS_KEY_PASSWORD`, handed over in a 0600 scratch file, never on the command line.
/// The key is read as the executables' signer reads it (AuthenticodeKey), so a wrong password is
/// the same error, found in the preflight before anything is built.
package struct OsslsigncodeSigner: MSISigning {
    package var key: Data
    package var password: String
    package var timestampURL: String?
    /// Where the key came from, for messages.
    package var source: String

    /// The signer `[windows]` and the environment configure; nil when no key is set.
    package static func configured(
        _ settings: WindowsSettings, config: String, root: URL, environment: [String: String]
    ) throws -> OsslsigncodeSigner? {
        guard let (bytes, source) = try AuthenticodeKey.bytes(settings: settings, config: config, root: root, environment: environment)
        else { return nil }
        let password = environment[WindowsSettings.passwordVariable] ?? ""
        // Opens it first: a wrong password or an unreadable file is relctl's own error (exit 2).
        _ = try AuthenticodeKey(pkcs12: Array(bytes), password: password, source: source)
        return OsslsigncodeSigner(
            key: bytes, password: password, timestampURL: settings.timestampURL?.absoluteString, source: source)
    }

    package func sign(_ input: URL, to output: URL, context: Context) async throws {
        let folder = input.deletingLastPathComponent()
        let keyFile = folder.appendingPathComponent("signing-key.p12")
        let passwordFile = folder.appendingPathComponent("signing-key.pass")
        try AtomicFile.write(key, to: keyFile, permissions: 0o600)
        try AtomicFile.write(Data(password.utf8), to: passwordFile, permissions: 0o600)
        defer {
            try? FileSystem.remove(keyFile)
            try? FileSystem.remove(passwordFile)
        }
        var arguments = ["sign", "-pkcs12", keyFile.path, "-readpass", passwordFile.path, "-h", "sha256"]
        if let timestampURL { arguments += ["-ts", timestampURL] }
        arguments += ["-in", input.path, "-out", output.path]
        try await MSITools.run(MSITools.osslsigncode, arguments, in: folder, context: context)
    }
}
