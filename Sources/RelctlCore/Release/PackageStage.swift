import Foundation

/// Packages one reproducible archive (and its `.sha256`) per target with `Packager`, into the
/// run's dist folder.
public struct PackageStage: ReleaseStage {
    public init() {}
    public var name: String { "package" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        run.progress.update("packaging \(run.targets.count) archive(s)")
        let packaged = try await Packager(context: run.context).package(
            config: run.config, tag: run.tag, targets: run.targets, outputDirectory: run.distDirectory,
            binaryRoot: run.options.artifactsDirectory, jobs: run.options.jobs, clean: false
        )
        run.artifacts = packaged.map {
            ReleaseManifest.Artifact(name: $0.name, target: $0.target, format: $0.format, size: $0.size, sha256: $0.sha256)
        }
        let bytes = packaged.reduce(Int64(0)) { $0 + $1.size }
        return "\(packaged.count) archive(s), \(ByteCount.format(bytes))"
    }
}
