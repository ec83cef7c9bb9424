import Foundation
import RelctlBasics
import RelctlCore

/// Writes every configured channel's files into the staging folder once the archives and
/// `SHA256SUMS` are known, and lists the channels' assets in `SHA256SUMS` (before the sign stage,
/// so the signatures cover them). A failing channel fails the release before the tag: the staging
/// folder goes with the workspace, so no channel's files are left half-written in dist/.
struct ChannelStage: ReleaseStage {
    init() {}
    var name: String { "channels" }
    var needs: Set<ReleaseFact> { [.archives, .checksums] }
    var produces: Set<ReleaseFact> { [.channels] }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.channels.isEmpty ? "no [[chart]], [nix], [homebrew], [scoop] or [[channel]]" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let checksums = outputs.checksums else { return nil }
        let channels = try ChannelRegistry.configured(run.config, environment: run.context.environment)
        let release = Self.release(run, manifest: checksums.manifest, dist: run.stagingDirectory)
        let written = try await ChannelRunner.write(channels, release: release, progress: run.progress.update)
        try ChannelRunner.list(written.flatMap(\.assets), in: run.stagingDirectory, algorithm: checksums.algorithm)
        outputs.channels = written
        return written.flatMap(\.files).joined(separator: ", ")
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
