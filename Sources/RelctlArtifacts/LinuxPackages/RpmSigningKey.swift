import Foundation
import RelctlBasics
import RelctlModel

/// The key that signs an `[[package]] format = "rpm"` table's packages: the text of an OpenSSH
/// Ed25519 private key from `RELCTL_RPM_SIGNING_KEY` (CI puts a secret there), else the table's
/// `signing-key` file, used as an OpenPGP EdDSA key. None configured: the rpm stays unsigned.
package enum RpmSigningKey {
    package static let variable = "RELCTL_RPM_SIGNING_KEY"

    /// The table's key, or nil when none is configured; a key that cannot be read or parsed is
    /// bad input naming the file or the variable.
    /// - Parameter root: where `signing-key` resolves (the project: a dry run's scratch clone
    ///   lacks git-ignored key folders).
    package static func load(
        _ settings: LinuxPackageSettings, config: RelctlConfig, root: URL, environment: [String: String]
    ) throws -> OpenPGPSigningKey? {
        guard settings.format == "rpm" else { return nil }
        let text: String
        let source: String
        if let value = environment[variable], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            (text, source) = (value, "$\(variable)")
        } else if let path = settings.signingKey {
            guard let data = FileSystem.contents(of: RelctlConfig.resolve(path, root: root)) else {
                throw SigningError.missingFile(
                    path: path,
                    reason:
                        "`[[package]] signing-key` names this file but it cannot be read (paths are relative to the project root, \(root.path))"
                )
            }
            (text, source) = (String(decoding: data, as: UTF8.self), path)
        } else {
            return nil
        }
        let key = try OpenSSHPrivateKey(text: text, source: source)
        return OpenPGPSigningKey(key, userID: userID(settings, config: config))
    }

    /// Whether `load` finds a key for any rpm table: the same rule without reading the file
    /// (the release notes say which keys the repository publishes).
    package static func isConfigured(_ tables: [LinuxPackageSettings], environment: [String: String]) -> Bool {
        guard tables.contains(where: { $0.format == "rpm" }) else { return false }
        if let value = environment[variable], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return true
        }
        return tables.contains { $0.format == "rpm" && $0.signingKey != nil }
    }

    /// The exported key's user ID: the table's maintainer (`Name <email>`), else the project's name.
    package static func userID(_ settings: LinuxPackageSettings, config: RelctlConfig) -> String {
        let maintainer = config.project.metadata.overridden(by: settings.metadata).maintainer ?? ""
        return maintainer.isEmpty ? "\(config.project.name) rpm signing key" : maintainer
    }
}
