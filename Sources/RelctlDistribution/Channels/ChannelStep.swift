import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `relctl chart` and `relctl channel NAME`: one channel for CI, after `package` and `checksum`. It
/// reads the release from dist/manifest.json, writes into a staging folder inside dist, moves the
/// files into place only when every channel succeeded, lists the assets in `SHA256SUMS`, and then
/// (with `--push` / `--publish`) publishes.
public enum ChannelStep {
    /// What a step did: the JSON shape of `--json`.
    public struct Report: Sendable, Encodable {
        package var tag: String
        package var channels: [ChannelOutput]
        package var published: [String]
    }

    /// Writes (and with `publish` publishes) channel `name` for the release of `checked`: the tag
    /// the command checked (`ReleaseIdentity.check`, `.compared`: a channel may describe a tag
    /// whose manifests moved on). Its commit and clock are fixed here, once `dist/` holds the release.
    package static func run(
        name: String, checked: ReleaseIdentity.CheckedTag, config: RelctlConfig, context: Context, dist: String?,
        publish: Bool, dryRun: Bool
    ) async throws -> Report {
        let tag = checked.tag
        let channels = try ChannelRegistry.named(name, config: config, environment: context.environment)
        let distURL =
            dist.map { context.resolve($0) } ?? config.root.appendingPathComponent(RelctlConfig.distFolderName)
        let shown = dist ?? ChecksumWriter.defaultFolder(config: config, context: context)
        let found = try ReleaseManifest.read(in: distURL)
        var manifest: ReleaseManifest
        // A chart needs no archives (a chart-only project has none): the release is the tag, and
        // its commit the tag's (HEAD's before the tag exists).
        let chartOnly = channels.allSatisfy({ $0.id == HelmChannel.id }) && found?.tag != tag
        if chartOnly {
            manifest = ReleaseManifest(
                project: config.project.name, tag: tag, version: checked.version.description, commit: "")
            try FileSystem.createDirectory(distURL)
        } else if let found {
            manifest = found
        } else {
            throw ChannelError.noManifest(dist: shown)
        }
        guard manifest.tag == tag else {
            throw ChannelError.chartInvalid(
                path: shown + "/" + ReleaseManifest.fileName, line: nil,
                reason:
                    "is the manifest of \(manifest.tag.isEmpty ? "no tag" : manifest.tag), not \(tag); package and checksum \(tag) first"
            )
        }
        let algorithm = try ChecksumAlgorithm(id: config.checksum.algorithm, file: config.path)
        let identity = try await ReleaseIdentity.resolve(
            checked, config: config, context: context, commit: chartOnly ? .tagged : .none, clock: .required)
        if chartOnly { manifest.commit = identity.commit }
        let time = identity.sourceDateEpoch
        let git = Git(directory: config.root, context: context)
        let downloadBase = ChannelRelease.downloadBase(
            tag: tag, config: config, remoteURL: await git.remoteURL(), context: context)

        Temporaries.reclaim(in: distURL, console: context.console)
        let staging = distURL.appendingPathComponent(Temporaries.name(".relctl-channel"))
        try FileSystem.createDirectory(staging)
        defer { try? FileSystem.remove(staging) }
        var release = ChannelRelease(
            manifest: manifest, time: time, dist: staging, dryRun: dryRun, downloadBase: downloadBase, config: config,
            context: context)
        // The archives stay where they are; only the channels' files are staged.
        release.archives = release.archives.map { archive in
            var archive = archive
            archive.path = distURL.appendingPathComponent(archive.name).path
            return archive
        }
        // The staging folder starts empty: dist/'s own files are what a plugin must not replace.
        let outputs = try await ChannelRunner.write(channels, release: release, previous: distURL) {
            context.console.detail($0)
        }
        for file in outputs.flatMap(\.files) {
            if file.contains("/") { try FileSystem.createFolders(of: file, inside: distURL) }
            let destination = distURL.appendingPathComponent(file)
            try AtomicFile.commit(
                staging.appendingPathComponent(file), to: destination,
                action: "cannot move the channel's file into place")
            context.console.info("wrote \(shown)/\(file)")
        }
        try ChannelRunner.list(outputs.flatMap(\.assets), in: distURL, algorithm: algorithm)

        var published = outputs.flatMap(\.published)
        if publish {
            release.dist = distURL
            for (channel, output) in zip(channels, outputs) where channel.publishedBy != nil {
                published += try await channel.publish(release, output)
            }
        }
        return Report(tag: tag, channels: outputs, published: published)
    }
}
