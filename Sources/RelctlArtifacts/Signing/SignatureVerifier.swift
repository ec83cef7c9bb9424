import Foundation
import RelctlBasics
import RelctlModel

/// The signature half of `relctl verify`: checks `SUMS.sig` against an allowed-signers file and
/// `SUMS.minisig` against a minisign public key, each only when its key is given or configured.
public enum SignatureVerifier {
    /// One signature's outcome in `relctl verify --json`.
    public struct Check: Codable, Sendable, Equatable {
        package enum Status: String, Codable, Sendable {
            /// Valid, by a trusted key.
            case ok
            /// Present but not valid, or not by a trusted key.
            case bad
            /// A key is configured for it but the signature file is absent.
            case missing
        }
        /// `ssh` or `minisign`.
        public var kind: String
        public var file: String
        package var status: Status
        /// The allowed-signers principals or the minisign key id that signed.
        public var signer: String?
        package var reason: String?
    }

    /// Public keys to verify with, as paths the user gave (flags) or `[sign]` paths (project root).
    public struct Keys: Sendable {
        package var allowedSigners: String?
        package var minisignPublicKey: String?
        public init(allowedSigners: String? = nil, minisignPublicKey: String? = nil) {
            self.allowedSigners = allowedSigners
            self.minisignPublicKey = minisignPublicKey
        }
    }

    /// - Parameters:
    ///   - flags: keys from `--allowed-signers` / `--minisign-key` (relative to the working folder).
    ///   - settings: `[sign]` keys (relative to the project root), used when no flag names that kind.
    public static func verify(
        sums shown: String, flags: Keys, settings: SignSettings, root: URL, context: Context
    ) throws -> [Check] {
        let url = context.resolve(shown)
        var checks: [Check] = []
        let allowedText: (String, String)? =
            try flags.allowedSigners.map {
                (try read(context.resolve($0).path, shown: $0, flag: "--allowed-signers"), $0)
            }
            ?? settings.allowedSigners.map { (try SigningKeys.readFile($0, key: "allowed-signers", root: root), $0) }
        let minisignText: (String, String)? =
            try flags.minisignPublicKey.map {
                (try read(context.resolve($0).path, shown: $0, flag: "--minisign-key"), $0)
            }
            ?? settings.minisignPublicKey.map {
                (try SigningKeys.readFile($0, key: "minisign-public-key", root: root), $0)
            }

        if let (text, source) = allowedText {
            let signers = try AllowedSigners(text: text, file: source)
            checks.append(try checkSSH(url: url, shown: shown, signers: signers))
        } else if FileSystem.exists(atPath: url.path + ReleaseSigner.sshExtension) {
            context.console.info(
                "\(shown)\(ReleaseSigner.sshExtension): not checked; pass --allowed-signers FILE or set [sign] allowed-signers"
            )
        }
        if let (text, source) = minisignText {
            let key = try MinisignPublicKey(text: text, source: source)
            checks.append(try checkMinisign(url: url, shown: shown, key: key))
        } else if FileSystem.exists(atPath: url.path + ReleaseSigner.minisignExtension) {
            context.console.info(
                "\(shown)\(ReleaseSigner.minisignExtension): not checked; pass --minisign-key PUB or set [sign] minisign-public-key"
            )
        }
        return checks
    }

    package static func read(_ path: String, shown: String, flag: String) throws -> String {
        guard let data = FileSystem.contents(atPath: path) else {
            throw SigningError.missingFile(path: shown, reason: "\(flag) names this file but it cannot be read")
        }
        return String(decoding: data, as: UTF8.self)
    }

    package static func checkSSH(url: URL, shown: String, signers: AllowedSigners) throws -> Check {
        let file = shown + ReleaseSigner.sshExtension
        guard let text = FileSystem.contents(atPath: url.path + ReleaseSigner.sshExtension) else {
            return Check(
                kind: "ssh", file: file, status: .missing,
                reason:
                    "missing: an allowed-signers file is given but there is no SSH signature; download it with the release or run `relctl sign`"
            )
        }
        guard let message = FileSystem.contents(of: url) else {
            throw SigningError.missingFile(path: shown, reason: "cannot be read")
        }
        let signature: SSHSignature
        do { signature = try SSHSignature(armored: String(decoding: text, as: UTF8.self), file: file) } catch let error
            as SigningError
        {
            return Check(kind: "ssh", file: file, status: .bad, reason: error.diagnostics.first?.message)
        }
        guard signature.namespace == SSHSignature.fileNamespace else {
            return Check(
                kind: "ssh", file: file, status: .bad,
                reason: "signed for namespace `\(signature.namespace)`, not `file`")
        }
        guard let signer = signers.signer(for: signature.publicKeyBlob, namespace: signature.namespace) else {
            return Check(
                kind: "ssh", file: file, status: .bad,
                reason: "signed by a key the allowed-signers file does not list (for namespace `file`)")
        }
        guard signature.isValid(for: message) else {
            return Check(
                kind: "ssh", file: file, status: .bad, signer: signer.principals,
                reason: "signature verification failed: \(url.lastPathComponent) or its signature was altered")
        }
        return Check(kind: "ssh", file: file, status: .ok, signer: signer.principals)
    }

    package static func checkMinisign(url: URL, shown: String, key: MinisignPublicKey) throws -> Check {
        let file = shown + ReleaseSigner.minisignExtension
        guard let text = FileSystem.contents(atPath: url.path + ReleaseSigner.minisignExtension) else {
            return Check(
                kind: "minisign", file: file, status: .missing,
                reason:
                    "missing: a minisign public key is given but there is no minisign signature; download it with the release or run `relctl sign`"
            )
        }
        let signature: MinisignSignature
        do { signature = try MinisignSignature(text: String(decoding: text, as: UTF8.self), file: file) } catch let
            error as SigningError
        {
            return Check(kind: "minisign", file: file, status: .bad, reason: error.diagnostics.first?.message)
        }
        if let problem = try signature.problem(verifying: url, with: key) {
            return Check(kind: "minisign", file: file, status: .bad, reason: problem)
        }
        return Check(kind: "minisign", file: file, status: .ok, signer: key.keyIDText)
    }
}
