import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Everything a channel reads about the release it writes for: the identity, the archives with
/// their digests, and where to write. `relctl release` builds it from the checksum stage's
/// manifest in memory; the step commands (`relctl chart`, `relctl channel`) from dist/manifest.json.
public struct ChannelRelease: Sendable {
    public package(set) var project: String
    public package(set) var tag: String
    public package(set) var version: String
    public package(set) var commit: String
    /// SOURCE_DATE_EPOCH or the commit time: the only clock written into channel files.
    public package(set) var time: Int
    /// The release's archives as `manifest.json` lists them, each with its absolute `path`.
    public package(set) var archives: [Artifact]
    /// Where the files go: the release's staging folder, or dist/ for a step command.
    public package(set) var dist: URL
    public package(set) var dryRun: Bool
    /// The release's download folder URL ending in `/`, nil when the repository is unknown.
    public package(set) var downloadBase: String?
    public package(set) var config: RelctlConfig
    public package(set) var context: Context

    package init(
        manifest: ReleaseManifest, time: Int, dist: URL, dryRun: Bool, downloadBase: String?,
        config: RelctlConfig, context: Context
    ) {
        project = manifest.project
        tag = manifest.tag
        version = manifest.version
        commit = manifest.commit
        self.time = time
        archives = manifest.archives.map { artifact in
            var archive = artifact
            archive.path = dist.appendingPathComponent(artifact.name).path
            return archive
        }
        self.dist = dist
        self.dryRun = dryRun
        self.downloadBase = downloadBase
        self.config = config
        self.context = context
    }

    /// The URL users download the archive from; nil when the repository is unknown.
    package func downloadURL(of archive: Artifact) -> String? {
        downloadBase.map { $0 + Self.percentEncoded(archive.name) }
    }

    /// The URL users download the archive from; a channel that publishes URLs cannot do without it.
    public func url(of archive: Artifact, for channel: String) throws -> String {
        guard let url = downloadURL(of: archive) else { throw ChannelError.noDownloadURL(channel: channel) }
        return url
    }

    /// The release's download URLs, the one place channels point users at.
    package static func downloadBase(
        tag: String, config: RelctlConfig, remoteURL: String?, context: Context
    ) -> String? {
        if let base = context.environment["INSTALLER_BASE_URL"], !base.isEmpty {
            return base.hasSuffix("/") ? base : base + "/"
        }
        return InstallerWriter.downloadBase(
            tag: tag, repository: config.publish.github, remoteURL: remoteURL, context: context)
    }

    package static func percentEncoded(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/")))
            ?? name
    }
}
