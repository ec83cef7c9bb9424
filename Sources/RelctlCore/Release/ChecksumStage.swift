import Foundation

/// Writes the combined `SHA256SUMS` (per `[checksum] algorithm`) and `manifest.json` for the
/// run's archives with `ChecksumWriter`, the same code as `relctl checksum`.
public struct ChecksumStage: ReleaseStage {
    public init() {}
    public var name: String { "checksum" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        let algorithm = try ChecksumAlgorithm(id: run.config.checksum.algorithm, file: run.config.path)
        let report = try ChecksumWriter.run(paths: [run.distDirectory.path], algorithm: algorithm, config: run.config, context: run.context, jobs: run.options.jobs)
        if let manifest = report.folders.first?.release { run.artifacts = manifest.artifacts }
        return "\(algorithm.sumsFileName) and \(ReleaseManifest.fileName) (\(run.artifacts.count) archive(s))"
    }
}
