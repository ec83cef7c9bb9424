import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// What the Install section says beyond the per-archive commands: the one-line installer and
/// how to check the signatures of SHA256SUMS by hand. Found in the dist folder, never guessed:
/// a line appears only when its file is there.
package struct InstallVerification: Sendable, Equatable {
    /// `{project}-installer.sh` / `.ps1` when written.
    package var shellInstaller: String?
    package var powerShellInstaller: String?
    /// One allowed-signers line (from `[sign] allowed-signers`) when `SHA256SUMS.sig` exists.
    package var allowedSigner: String?
    /// The base64 minisign public key when `SHA256SUMS.minisig` exists and the key is configured.
    package var minisignKey: String?
    /// How users add the signed APT/DNF repositories (`[repository] url`), as Markdown.
    package var packageRepositories: String?
    /// True when there is a signature to check by hand.
    package var hasSignatures: Bool { allowedSigner != nil || minisignKey != nil }

    package init(
        shellInstaller: String? = nil, powerShellInstaller: String? = nil, allowedSigner: String? = nil,
        minisignKey: String? = nil
    ) {
        self.shellInstaller = shellInstaller
        self.powerShellInstaller = powerShellInstaller
        self.allowedSigner = allowedSigner
        self.minisignKey = minisignKey
    }

    /// Looks at `dist` and the `[sign]` public keys; nil when there is nothing to say.
    package static func find(in dist: URL, project: String, settings: SignSettings, root: URL) -> InstallVerification? {
        func exists(_ name: String) -> Bool {
            FileSystem.exists(atPath: dist.appendingPathComponent(name).path)
        }
        var result = InstallVerification()
        let sh = InstallerWriter.shellFileName(project: project)
        let ps1 = InstallerWriter.powerShellFileName(project: project)
        if exists(sh) { result.shellInstaller = sh }
        if exists(ps1) { result.powerShellInstaller = ps1 }
        let sums = ChecksumAlgorithm.sha256.sumsFileName
        if exists(sums + ReleaseSigner.sshExtension), let path = settings.allowedSigners,
            let text = try? SigningKeys.readFile(path, key: "allowed-signers", root: root)
        {
            result.allowedSigner = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { !$0.isEmpty && !$0.hasPrefix("#") && !$0.contains("'") }
        }
        if exists(sums + ReleaseSigner.minisignExtension), let path = settings.minisignPublicKey,
            let text = try? SigningKeys.readFile(path, key: "minisign-public-key", root: root),
            let key = try? MinisignPublicKey(text: text, source: path)
        {
            result.minisignKey = Data(Array("Ed".utf8) + key.keyID + key.key).base64EncodedString()
        }
        return result == InstallVerification() ? nil : result
    }
}
