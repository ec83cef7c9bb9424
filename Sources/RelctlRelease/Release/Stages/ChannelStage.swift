import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution

/// Writes every configured channel's files into the staging folder once the archives and
/// `SHA256SUMS` are known, and lists the channels' assets in `SHA256SUMS` (before the sign stage,
/// so the signatures cover them). A failing channel fails the release before the tag: the staging
/// folder goes with the workspace, so no channel's files are left half-written in dist/.
struct ChannelStage: ReleaseStage {
    init() {}
    var name: String { "channels" }
    /// Checksums when there are archives; a tag-only release (no `[[target]]`) still packages its
    /// charts, which need none.
    var needs: Set<ReleaseFact> { [] }
    var produces: Set<ReleaseFact> { [.channels] }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.channels.isEmpty ? "no [[chart]], [nix], [homebrew], [scoop] or [[channel]]" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        var channels = try ChannelRegistry.configured(run.config, environment: run.context.environment)
        let manifest: ReleaseManifest
        let algorithm: ChecksumAlgorithm
        var left: [String] = []
        if let checksums = outputs.checksums {
            manifest = checksums.manifest
            algorithm = checksums.algorithm
        } else if outputs.has(.archives) || !run.identity.isTagOnly {
            return nil
        } else {
            // No [[target]]: the charts are the release's files; channels that install archives
            // have nothing to point at.
            left = channels.filter { $0.id != HelmChannel.id }.map(\.title)
            channels = channels.filter { $0.id == HelmChannel.id }
            guard !channels.isEmpty else {
                return "no archives in a tag-only release: \(left.joined(separator: ", ")) skipped"
            }
            manifest = ReleaseManifest(
                project: run.identity.project, tag: run.tag, version: run.identity.version.description,
                commit: run.identity.commit)
            algorithm = try ChecksumAlgorithm(id: run.config.checksum.algorithm, file: run.config.path)
        }
        let release = Self.release(run, manifest: manifest, dist: run.stagingDirectory)
        let written = try await ChannelRunner.write(channels, release: release, progress: run.progress.update)
        try ChannelRunner.list(written.flatMap(\.assets), in: run.stagingDirectory, algorithm: algorithm)
        outputs.channels = written
        let skipped =
            left.isEmpty ? "" : " (\(left.joined(separator: ", ")) skipped: no archives in a tag-only release)"
        return written.flatMap(\.files).joined(separator: ", ") + skipped
    }

    /// The channels' view of this release, writing into (or publishing from) `dist`.
    static func release(_ run: ReleaseRun, manifest: ReleaseManifest, dist: URL) -> ChannelRelease {
        var manifest = manifest
        manifest.commit = run.identity.commit
        return ChannelRelease(
            manifest: manifest, time: run.identity.sourceDateEpoch, dist: dist, dryRun: run.isDryRun,
            downloadBase: ChannelRelease.downloadBase(
                tag: run.tag, config: run.config, remoteURL: run.remoteURL, context: run.context),
            config: run.config, context: run.context)
    }
}
