import Foundation

/// `[[chart]]`: packages the chart folder as `dist/{chart}-{version}.tgz` (a release asset) and,
/// with `--push` and a `repository`, pushes it as a Helm OCI artifact. The chart's `version` must
/// be the release's version (it is a version location, so `validate-tag` and the preflight check it).
struct HelmChannel: Channel {
    static let id = "chart"
    var chart: ChannelSettings.Chart

    var id: String { Self.id }
    var title: String { "chart \(chart.path)" }
    var publishedBy: ChannelPublishFlag? { chart.repository == nil ? nil : .push }

    func load(_ release: ChannelRelease) throws -> HelmChartPackage {
        let folder = RelctlConfig.resolve(chart.path, root: release.config.root)
        let loaded = try HelmChartPackage.load(folder: folder, shown: chart.path)
        guard loaded.version == release.version else {
            throw ChannelError.chartInvalid(
                path: HelmChartFile.fileName(in: chart.path), line: nil,
                reason:
                    "the chart's version is \(loaded.version), the release's \(release.version); run `relctl bump --write --set \(release.version)` (Chart.yaml is a version location)"
            )
        }
        return loaded
    }

    func write(_ release: ChannelRelease) async throws -> ChannelOutput {
        let loaded = try load(release)
        let destination = release.dist.appendingPathComponent(loaded.fileName)
        let bytes = try ChannelTarball.bytes(
            loaded.entries, mtime: release.time, destination: destination.path, gzipExtra: ChannelTarball.helmExtra,
            gzipComment: ChannelTarball.helmComment)
        try AtomicFile.write(bytes, to: destination)
        return ChannelOutput(channel: id, files: [loaded.fileName], assets: [loaded.fileName])
    }

    func publish(_ release: ChannelRelease, _ output: ChannelOutput) async throws -> [String] {
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
