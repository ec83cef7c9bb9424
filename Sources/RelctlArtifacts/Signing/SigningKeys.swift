import Foundation
import RelctlBasics
import RelctlModel

/// Where the signing keys come from: the environment first (CI puts a secret's text there),
/// then the `[sign]` files, resolved against the project root (also during `release --dry-run`,
/// whose scratch clone lacks git-ignored key folders).
package struct SigningKeys: Sendable {
    /// The text of an OpenSSH Ed25519 private key.
    package static let sshKeyVariable = "RELCTL_SSH_KEY"
    /// The text of a minisign secret key.
    package static let minisignKeyVariable = "RELCTL_MINISIGN_KEY"
    /// The password of an encrypted minisign secret key.
    package static let minisignPasswordVariable = "RELCTL_MINISIGN_PASSWORD"

    package var ssh: OpenSSHPrivateKey?
    package var minisign: MinisignSecretKey?

    package var isEmpty: Bool { ssh == nil && minisign == nil }

    /// Reads every configured key; all problems are reported together (exit 2).
    package static func load(settings: SignSettings, root: URL, environment: [String: String]) throws -> SigningKeys {
        var keys = SigningKeys()
        var problems: [any RelctlError] = []
        do {
            if let (text, source) = try text(
                variable: sshKeyVariable, path: settings.sshKey, key: "ssh-key", root: root, environment: environment)
            {
                keys.ssh = try OpenSSHPrivateKey(text: text, source: source)
            }
        } catch let error as RelctlError { problems.append(error) }
        do {
            if let (text, source) = try text(
                variable: minisignKeyVariable, path: settings.minisignKey, key: "minisign-key", root: root,
                environment: environment)
            {
                keys.minisign = try MinisignSecretKey(
                    text: text, source: source, password: environment[minisignPasswordVariable],
                    passwordVariable: minisignPasswordVariable)
            }
        } catch let error as RelctlError { problems.append(error) }
        if !problems.isEmpty { throw ProblemList(problems) }
        return keys
    }

    /// The key text and where it came from (for messages), or nil when neither is set.
    package static func text(
        variable: String, path: String?, key: String, root: URL, environment: [String: String]
    ) throws -> (String, String)? {
        if let value = environment[variable], !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return (value, "$\(variable)")
        }
        guard let path else { return nil }
        return (try readFile(path, key: key, root: root), path)
    }

    /// Reads a `[sign]` file relative to the project root; missing is bad input naming the key.
    package static func readFile(_ path: String, key: String, root: URL) throws -> String {
        let url = RelctlConfig.resolve(path, root: root)
        guard let data = FileSystem.contents(of: url) else {
            throw SigningError.missingFile(
                path: path,
                reason:
                    "`[sign] \(key)` names this file but it cannot be read (paths are relative to the project root, \(root.path))"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }
}
