import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject

/// Every parser relctl runs on text it did not write, fed through its real entry point: files
/// are written to the scratch folder and read the way the commands read them, so invalid UTF-8
/// and NUL reach the same decoding the user's file would.
package enum FuzzTargets {
    package static let all: [FuzzTarget] = [
        FuzzTarget(name: "relctl.toml", seeds: FuzzCorpus.config) { input, scratch in
            let file = write(input, "relctl.toml", in: scratch)
            return await FuzzTarget.judge(naming: "relctl.toml") {
                let document = try TOMLDocument(file: ProjectFile.open(location: file, shown: "relctl.toml"))
                _ = try ConfigLoader.parse(document, root: scratch)
            }
        },
        manifest("cargo", file: "Cargo.toml", seeds: FuzzCorpus.cargo),
        manifest("npm", file: "package.json", seeds: FuzzCorpus.npm),
        manifest("python", file: "pyproject.toml", seeds: FuzzCorpus.python),
        manifest("swift", file: "Version.swift", seeds: FuzzCorpus.swift),
        manifest("plain", file: "VERSION", seeds: FuzzCorpus.plain),
        manifest("regex", file: "version.txt", seeds: FuzzCorpus.regex, pattern: #"v(?<version>[0-9][0-9A-Za-z.+-]*)"#),
        manifest(HelmManifestReader.versionKind, file: "Chart.yaml", seeds: FuzzCorpus.helmChart),
        manifest(HelmManifestReader.appVersionKind, file: "Chart.yaml", seeds: FuzzCorpus.helmChart),
        FuzzTarget(name: "semver", seeds: FuzzCorpus.semver) { input, _ in
            await FuzzTarget.judge { _ = try SemanticVersion(parsing: String(decoding: input, as: UTF8.self)) }
        },
        FuzzTarget(name: "pep440", seeds: FuzzCorpus.pep440) { input, _ in
            // A failable parser: nil is its refusal. Ordering and printing run too, they hold the arithmetic.
            if let version = PEP440Version(String(decoding: input, as: UTF8.self)) {
                _ = version < version
                _ = version.description
                return .parsed
            }
            return .refused
        },
        FuzzTarget(name: "calver", seeds: FuzzCorpus.calver) { input, _ in
            await FuzzTarget.judge { _ = try VersionScheme.calendarVersion(String(decoding: input, as: UTF8.self)) }
        },
        FuzzTarget(name: "SHA256SUMS", seeds: FuzzCorpus.checksums) { input, scratch in
            let file = write(input, "SHA256SUMS", in: scratch)
            return await FuzzTarget.judge(naming: "SHA256SUMS") {
                _ = try ChecksumFile.read(file, displayPath: "SHA256SUMS")
            }
        },
        text("allowed_signers", seeds: FuzzCorpus.allowedSigners, file: "allowed_signers") {
            _ = try AllowedSigners(text: $0, file: $1)
        },
        text("minisign public key", seeds: FuzzCorpus.minisignPublicKey, file: "minisign.pub") {
            _ = try MinisignPublicKey(text: $0, source: $1)
        },
        text("minisig", seeds: FuzzCorpus.minisignSignature, file: "demo.tar.gz.minisig") {
            _ = try MinisignSignature(text: $0, file: $1)
        },
        text("ssh signature", seeds: FuzzCorpus.sshSignature, file: "demo.tar.gz.sig") {
            _ = try SSHSignature(armored: $0, file: $1)
        },
        FuzzTarget(name: "docker config", seeds: FuzzCorpus.dockerConfig) { input, scratch in
            _ = write(input, "config.json", in: scratch)
            // PATH is the empty scratch folder: a helper the config names is looked up and not found
            // (refused, naming the config), never run.
            let credentials = DockerCredentials(environment: ["DOCKER_CONFIG": scratch.path, "PATH": scratch.path])
            return await FuzzTarget.judge(naming: "config.json") {
                _ = try await credentials.lookup(registry: "ghcr.io")
                _ = try await credentials.lookup(registry: "docker.io")
            }
        },
        FuzzTarget(name: "OCI manifest", seeds: FuzzCorpus.ociManifest) { input, _ in
            await FuzzTarget.judge { _ = try OCIJSON.decode(OCIManifest.self, from: Data(input), what: "manifest") }
        },
        FuzzTarget(name: "OCI index", seeds: FuzzCorpus.ociIndex) { input, _ in
            await FuzzTarget.judge { _ = try OCIJSON.decode(OCIIndex.self, from: Data(input), what: "index") }
        },
        FuzzTarget(name: "OCI config", seeds: FuzzCorpus.ociConfig) { input, _ in
            await FuzzTarget.judge { _ = try OCIJSON.decode(OCIImageConfig.self, from: Data(input), what: "config") }
        },
        FuzzTarget(name: "image reference", seeds: FuzzCorpus.imageReference) { input, _ in
            await FuzzTarget.judge { _ = try ImageReference(parsing: String(decoding: input, as: UTF8.self)) }
        },
        FuzzTarget(name: "WWW-Authenticate", seeds: FuzzCorpus.authChallenge) { input, _ in
            AuthChallenge(header: String(decoding: input, as: UTF8.self)) == nil ? .refused : .parsed
        },
        FuzzTarget(name: "registry token", seeds: FuzzCorpus.registryToken) { input, _ in
            RegistryClient.actions(inToken: String(decoding: input, as: UTF8.self), repository: "acme/demo") == nil
                ? .refused : .parsed
        },
        FuzzTarget(name: "registry error", seeds: FuzzCorpus.registryError) { input, _ in
            RegistryClient.detail(Data(input)).isEmpty ? .refused : .parsed
        },
        decoding("GitHub release", GitHubRelease.self, seeds: FuzzCorpus.githubRelease),
        decoding("GitHub assets", [GitHubAsset].self, seeds: FuzzCorpus.githubAssets),
        decoding("GitLab release", GitLabRelease.self, seeds: FuzzCorpus.gitlabRelease),
        decoding("GitLab links", [GitLabReleaseLink].self, seeds: FuzzCorpus.gitlabLinks),
        decoding("GitLab package files", [GitLabPackageFile].self, seeds: FuzzCorpus.gitlabPackageFiles),
        decoding("Gitea release", GiteaRelease.self, seeds: FuzzCorpus.giteaRelease),
        decoding("Gitea attachments", [GiteaAttachment].self, seeds: FuzzCorpus.giteaAttachments),
        FuzzTarget(name: "Link header", seeds: FuzzCorpus.linkHeader) { input, _ in
            LinkHeader.url(String(decoding: input, as: UTF8.self), rel: "next") == nil ? .refused : .parsed
        },
        FuzzTarget(name: "channel answer", seeds: FuzzCorpus.channelAnswer) { input, _ in
            await FuzzTarget.judge(naming: "fuzz-channel") {
                _ = try ChannelAnswer.parse(Data(input), channel: "fuzz-channel")
            }
        },
    ]

    /// The targets whose name is in `names`; every target when `names` is empty.
    package static func named(_ names: [String]) -> [FuzzTarget] {
        names.isEmpty ? all : all.filter { names.contains($0.name) }
    }

    private static func manifest(_ kind: String, file: String, seeds: [String], pattern: String? = nil) -> FuzzTarget {
        FuzzTarget(name: "manifest \(kind)", seeds: seeds) { input, scratch in
            let url = write(input, file, in: scratch)
            return await FuzzTarget.judge(naming: file) {
                _ = try ManifestReaders.read(VersionSource(path: file, kind: kind, pattern: pattern), root: scratch)
                _ = url
            }
        }
    }

    /// A parser of text already read, told the file's name for its messages.
    private static func text(
        _ name: String, seeds: [String], file: String, parse: @escaping @Sendable (String, String) throws -> Void
    ) -> FuzzTarget {
        FuzzTarget(name: name, seeds: seeds) { input, _ in
            await FuzzTarget.judge(naming: file) { try parse(String(decoding: input, as: UTF8.self), file) }
        }
    }

    private static func decoding<T: Decodable>(_ name: String, _ type: T.Type, seeds: [String]) -> FuzzTarget {
        FuzzTarget(name: name, seeds: seeds) { input, _ in
            FuzzTarget.judgeDecoding { _ = try JSONDecoder().decode(T.self, from: Data(input)) }
        }
    }

    private static func write(_ input: [UInt8], _ name: String, in folder: URL) -> URL {
        let url = folder.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: Data(input))
        return url
    }
}
