import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// `[[chart]]`: packages the chart folder as `dist/{chart}-{version}.tgz` (a release asset) and,
/// with `--push` and a `repository`, pushes it as a Helm OCI artifact. The chart's `version` must
/// be the release's version (it is a version location, so `validate-tag` and the preflight check it).
package struct HelmChannel: Channel {
    package static let id = "chart"
    package var chart: ChannelSettings.Chart

    package var id: String { Self.id }
    package var title: String { "chart \(chart.path)" }
    package var publishedBy: ChannelPublishFlag? { chart.repository == nil ? nil : .push }

    package func load(_ release: ChannelRelease) throws -> HelmChartPackage {
        let loaded = try HelmChartPackage.load(path: chart.path, root: release.config.root)
        // A chart versioned on its own (3.13.1 for app 0.9.0) names only `appVersion` in
        // `[[version]]`: then its `version` is its own, not the release's.
        let chartFile = HelmChartFile.fileName(in: chart.path)
        let versionFollows = release.config.versions.contains {
            $0.path == chartFile && $0.kind == HelmManifestReader.versionKind
        }
        guard !versionFollows || loaded.version == release.version else {
            throw ChannelError.chartInvalid(
                path: HelmChartFile.fileName(in: chart.path), line: nil,
                reason:
                    "the chart's version is \(loaded.version), the release's \(release.version); run `relctl bump --write --set \(release.version)` (Chart.yaml is a version location)"
            )
        }
        return loaded
    }

    package func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        // Its dependencies are part of the package: taken from charts/ or fetched, never left out.
        let loaded = try await HelmDependencyFetcher(
            context: release.context, root: release.config.root, chartPath: chart.path
        ).complete(try load(release))
        let destination = release.dist.appendingPathComponent(loaded.fileName)
        let bytes = try ChannelTarball.bytes(
            loaded.entries, mtime: release.time, destination: destination.path, gzipExtra: ChannelTarball.helmExtra,
            gzipComment: ChannelTarball.helmComment)
        try AtomicFile.write(bytes, to: destination)
        return ChannelOutput(channel: id, files: [loaded.fileName], assets: [loaded.fileName])
    }

    package func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String] {
        guard let repository = chart.repository, let file = output.files.first else { return [] }
        let chartFile = try HelmChartFile.read(
            RelctlConfig.resolve(HelmChartFile.fileName(in: chart.path), root: release.config.root),
            displayPath: HelmChartFile.fileName(in: chart.path))
        let pushed = try await HelmChartPusher(context: release.context).push(
            file: release.dist.appendingPathComponent(file), chart: chartFile, repository: repository,
            time: release.time, dryRun: release.dryRun)
        return ["oci://\(pushed.reference)@\(pushed.digest)"]
    }
}
