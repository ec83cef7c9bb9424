import Foundation
import RelctlBasics
import RelctlModel

/// Writes `{project}-{tag}.intoto.jsonl` next to the checksum file: one DSSE envelope (one JSON
/// line) of the release's in-toto statement, signed with the `[sign]` SSH Ed25519 key. The
/// release stage and `relctl sign` (CI's merge job) both come here.
public enum ProvenanceWriter {
    package static let fileExtension = ".intoto.jsonl"

    /// `{project}-{tag}.intoto.jsonl`; a `/` in a tag (`release/{version}`) becomes `_` so the
    /// file stays next to the checksum file.
    package static func fileName(project: String, tag: String) -> String {
        "\(project)-\(tag.replacingOccurrences(of: "/", with: "_"))\(fileExtension)"
    }

    /// Signs and writes the provenance of the files `sums` lists; returns the file written.
    package static func write(
        sums: URL, inputs: ProvenanceInputs, key: OpenSSHPrivateKey, environment: [String: String]
    ) throws -> URL {
        let list = try ChecksumFile.read(sums)
        let statement = ProvenanceBuilder.statement(sums: list, inputs: inputs, environment: environment)
        let payload = Data(try JSONOutput.compact(statement).utf8)
        let envelope = DSSEEnvelope.sign(payload: payload, payloadType: DSSEEnvelope.inTotoPayloadType, key: key)
        let url = sums.deletingLastPathComponent().appendingPathComponent(
            fileName(project: inputs.project, tag: inputs.tag))
        try AtomicFile.write(try envelope.jsonLine(), to: url)
        return url
    }

    /// The SSH key of `[sign]` (or `RELCTL_SSH_KEY`); a minisign key alone cannot sign DSSE.
    package static func key(
        config: RelctlConfig, keysRoot: URL, environment: [String: String]
    ) throws -> OpenSSHPrivateKey {
        var sshOnly = config.sign
        sshOnly.minisignKey = nil
        var environment = environment
        environment[SigningKeys.minisignKeyVariable] = nil
        guard let key = try SigningKeys.load(settings: sshOnly, root: keysRoot, environment: environment).ssh else {
            throw ProvenanceError.noSSHKey(config: config.path)
        }
        return key
    }

    /// The config file's name and SHA-256.
    package static func configDigest(_ config: RelctlConfig) throws -> (path: String, sha256: String) {
        let name = (config.path as NSString).lastPathComponent
        let url = config.root.appendingPathComponent(name)
        guard FileKind.isRegularFile(url.path) else {
            throw ProvenanceError.missingInput(
                path: config.path, reason: "the provenance records the config's digest, but it cannot be read")
        }
        return (name, try FileHasher.sha256(of: url))
    }

    /// `relctl sign`'s provenance, prepared (key, manifest, commit time) before any signature is
    /// written, so a missing input fails the command before it writes anything.
    public struct Prepared: Sendable {
        package let sums: URL
        package let shown: String
        package let inputs: ProvenanceInputs
        package let key: OpenSSHPrivateKey
        package let environment: [String: String]

        /// Writes the file; returns its path as shown next to the checksum file the user named.
        public func write() throws -> String {
            let url = try ProvenanceWriter.write(sums: sums, inputs: inputs, key: key, environment: environment)
            return (shown as NSString).deletingLastPathComponent.isEmpty
                ? url.lastPathComponent : (shown as NSString).deletingLastPathComponent + "/" + url.lastPathComponent
        }
    }

    /// Prepares the provenance of `sums` (a path as the user gave it) when `[provenance] enabled`; nil otherwise.
    public static func prepare(sums shown: String, config: RelctlConfig, context: Context) async throws -> Prepared? {
        guard config.provenance.enabled else { return nil }
        let url = context.resolve(shown)
        let key = try key(config: config, keysRoot: config.root, environment: context.environment)
        let inputs = try await inputs(nextTo: url, config: config, context: context)
        return Prepared(sums: url, shown: shown, inputs: inputs, key: key, environment: context.environment)
    }

    /// The release stage's inputs: the identity and manifest held in memory.
    package static func inputs(
        identity: ReleaseIdentity, manifest: ReleaseManifest, config: RelctlConfig, remoteURL: String?
    ) throws -> ProvenanceInputs {
        let (path, digest) = try configDigest(config)
        return ProvenanceInputs(
            project: identity.project, tag: identity.tag, version: identity.version.description,
            commit: identity.commit, sourceDateEpoch: identity.sourceDateEpoch,
            targets: Array(Set(manifest.archives.map(\.target))).sorted(), configPath: path, configSHA256: digest,
            repositoryURL: remoteURL ?? publishedRepository(config))
    }

    /// `relctl sign`'s inputs (a CI merge job): `manifest.json` next to the checksum file, the
    /// commit's time from git (or SOURCE_DATE_EPOCH), the `[release] remote`'s URL.
    package static func inputs(
        nextTo sums: URL, config: RelctlConfig, context: Context
    ) async throws -> ProvenanceInputs {
        let directory = sums.deletingLastPathComponent()
        guard let manifest = try ReleaseManifest.read(in: directory), !manifest.tag.isEmpty, !manifest.commit.isEmpty
        else {
            throw ProvenanceError.missingInput(
                path: directory.appendingPathComponent(ReleaseManifest.fileName).path,
                reason:
                    "the provenance needs the release's tag and commit from this file; run `relctl checksum` on the release's files first"
            )
        }
        let git = Git(directory: config.root, context: context)
        let epoch: Int
        if let environmentEpoch = try SourceDateEpoch.from(context.environment) {
            epoch = environmentEpoch
        } else {
            do { epoch = try await git.commitAndTime(of: manifest.commit).1 } catch {
                throw ProvenanceError.missingInput(
                    path: config.root.path,
                    reason:
                        "the provenance's times come from commit \(manifest.commit.prefix(12)), which this repository lacks; fetch it or set SOURCE_DATE_EPOCH"
                )
            }
        }
        let remote = config.release.remote
        let remoteURL = await git.settings(
            matching: "^remote\\.\(NSRegularExpression.escapedPattern(for: remote))\\.url$"
        )
        .last?.value
        let (path, digest) = try configDigest(config)
        return ProvenanceInputs(
            project: manifest.project, tag: manifest.tag, version: manifest.version, commit: manifest.commit,
            sourceDateEpoch: epoch, targets: Array(Set(manifest.archives.map(\.target))).sorted(), configPath: path,
            configSHA256: digest, repositoryURL: remoteURL ?? publishedRepository(config))
    }

    /// Without a remote, the GitHub repository `[publish] github` names is the source's home.
    package static func publishedRepository(_ config: RelctlConfig) -> String? {
        config.publish.github.map { "https://github.com/\($0)" }
    }
}
