import Foundation
import RelctlArtifacts
import RelctlBasics

/// Packages one reproducible archive (and its `.sha256`) per target with `Packager`, into the
/// staging folder. Sizes and digests come from the write stream; `manifest.json` is left to the
/// checksum stage, which writes it once.
struct PackageStage: ReleaseStage {
    init() {}
    var name: String { "package" }
    var needs: Set<ReleaseFact> { [.binaries] }
    var produces: Set<ReleaseFact> { [.archives] }
    var runsAlongside: Bool { true }

    /// `[archive] stage` is the user's command: it runs alone, as a hook would.
    func runsCommands(_ run: ReleaseRun) -> Bool { run.config.archive.stage != nil }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let targets = outputs.builtTargets ?? run.identity.targets
        let progress = run.progress
        let done = Counter()
        progress.update("packaging \(targets.count) archive(s)")
        let packaged = try await Packager(context: run.context).package(
            config: run.config, inputs: run.identity.packagingInputs, targets: targets,
            outputDirectory: run.stagingDirectory,
            binaryRoot: run.options.artifactsDirectory, jobs: run.options.jobs, keysRoot: run.projectRoot,
            updateManifest: false,
            onArchive: { _ in progress.update("packaging: \(done.increment())/\(targets.count) archive(s) written") }
        )
        outputs.archives = packaged
        let bytes = packaged.reduce(Int64(0)) { $0 + $1.size }
        return "\(packaged.count) archive(s), \(ByteCount.format(bytes))"
    }
}
