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
/// `[windows] signing-key` (or `RELCTL_WINDOWS_KEY`, the file's bytes in base64), its password
/// `RELCTL_WINDOWS_KEY_PASSWORD`, handed over in a 0600 scratch file, never on the command line.
package struct OsslsigncodeSigner: MSISigning {
    package var key: Data
    package var password: String
    package var timestampURL: String?
    /// Where the key came from, for messages.
    package var source: String

    /// The signer `[windows]` and the environment configure; nil when no key is set.
    package static func configured(
        _ settings: WindowsSettings, root: URL, environment: [String: String]
    ) throws -> OsslsigncodeSigner? {
        let password = environment[WindowsSettings.passwordVariable] ?? ""
        if let encoded = environment[WindowsSettings.keyVariable], !encoded.isEmpty {
            guard let key = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters), !key.isEmpty else {
                throw MSIError.signingKey(
                    source: "$" + WindowsSettings.keyVariable,
                    reason: "not base64; set it to the PKCS#12 file's bytes in base64 (`base64 -w0 key.p12`)")
            }
            return OsslsigncodeSigner(
                key: key, password: password, timestampURL: settings.timestampURL,
                source: "$" + WindowsSettings.keyVariable)
        }
        guard let path = settings.signingKey else { return nil }
        let file = try ProjectFile.open(path, in: root, what: "[windows] signing-key")
        guard file.isRegularFile, let key = file.data() else {
            throw MSIError.signingKey(source: file.location.path, reason: "no such file ([windows] signing-key)")
        }
        return OsslsigncodeSigner(key: key, password: password, timestampURL: settings.timestampURL, source: path)
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
