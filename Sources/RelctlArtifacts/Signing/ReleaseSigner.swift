import Foundation
import RelctlBasics
import RelctlModel

/// `relctl sign`: signs a checksum file with every configured key, writing `SUMS.sig` (SSHSIG,
/// namespace `file`) and/or `SUMS.minisig` next to it. Both signatures are computed before
/// either is written, and each is written atomically.
public enum ReleaseSigner {
    package static let sshExtension = ".sig"
    package static let minisignExtension = ".minisig"

    /// True when a key is configured in `[sign]` or given in the environment.
    package static func hasKeys(_ settings: SignSettings, environment: [String: String]) -> Bool {
        settings.sshKey != nil || settings.minisignKey != nil
            || [SigningKeys.sshKeyVariable, SigningKeys.minisignKeyVariable].contains {
                !(environment[$0] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            }
    }

    /// What `relctl sign --json` prints.
    public struct Report: Codable, Sendable, Equatable {
        public var file: String
        /// Signature files written, as paths next to `file`.
        public var signatures: [String]
        package var sshPublicKey: String?
        package var minisignKeyID: String?
        /// The provenance file written with the signatures (`[provenance] enabled`).
        public var provenance: String?
    }

    /// - Parameter keysRoot: where `[sign]` paths resolve (default: the config's root); the
    ///   release passes the project, since a dry run's scratch clone lacks git-ignored key folders.
    public static func sign(
        sums shown: String, config: RelctlConfig, context: Context, keysRoot: URL? = nil
    ) throws -> Report {
        let keys = try SigningKeys.load(
            settings: config.sign, root: keysRoot ?? config.root, environment: context.environment)
        guard !keys.isEmpty else { throw SigningError.noKey(config: config.path) }
        let url = context.resolve(shown)
        guard FileKind.isRegularFile(url.path), let data = FileSystem.contents(of: url) else {
            throw SigningError.missingFile(path: shown, reason: "not found; run `relctl checksum` first")
        }
        var outputs: [(URL, String)] = []
        var report = Report(file: shown, signatures: [])
        if let ssh = keys.ssh {
            let signature = try SSHSignature.sign(data, key: ssh)
            outputs.append((url.appendingToName(sshExtension), signature.armored))
            report.sshPublicKey = ssh.publicKeyLine
        }
        if let minisign = keys.minisign {
            let signature = try MinisignSignature.sign(
                file: url, key: minisign, trustedComment: trustedComment(for: url))
            outputs.append((url.appendingToName(minisignExtension), signature.fileText))
            report.minisignKeyID = minisign.publicKey.keyIDText
        }
        for (output, text) in outputs {
            try AtomicFile.write(text, to: output)
            report.signatures.append(shown + output.lastPathComponent.dropFirst(url.lastPathComponent.count))
        }
        // A signature of the other kind left from an earlier run signs an older list.
        for (ext, present) in [(sshExtension, keys.ssh != nil), (minisignExtension, keys.minisign != nil)]
        where !present {
            let stale = url.path + ext
            if FileSystem.exists(atPath: stale) {
                try FileSystem.remove(atPath: stale)
                context.console.warning(
                    "\(shown)\(ext): removed, it signed an earlier \(url.lastPathComponent) and no key of its kind is configured now"
                )
            }
        }
        return report
    }

    /// minisign's trusted comment (signed too): the file, and the release from manifest.json when
    /// there is one. No time stamp, so signing the same list twice gives the same comment.
    package static func trustedComment(for url: URL) -> String {
        var comment = "file:\(oneLine(url.lastPathComponent))"
        if let manifest = try? ReleaseManifest.read(in: url.deletingLastPathComponent()), !manifest.tag.isEmpty {
            comment += " project:\(oneLine(manifest.project)) tag:\(oneLine(manifest.tag))"
        }
        return comment
    }

    /// The trusted comment is one line of the `.minisig`: a line break in a name (from a
    /// manifest.json relctl did not write, or an older relctl) would split it, and no tool could
    /// verify the file. Such a value is written as a quoted string with escapes instead.
    package static func oneLine(_ text: String) -> String {
        let breaks = text.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
        }
        guard breaks else { return text }
        var quoted = QuotedString.basic(text)
        quoted = quoted.replacingOccurrences(of: "\u{85}", with: "\\u0085")
            .replacingOccurrences(of: "\u{2028}", with: "\\u2028").replacingOccurrences(of: "\u{2029}", with: "\\u2029")
        return quoted
    }
}
