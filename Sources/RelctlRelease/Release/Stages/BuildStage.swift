import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Builds every selected target with `BuildRunner` (or, with `--artifacts DIR`, checks the
/// prebuilt binaries are there for the packager).
struct BuildStage: ReleaseStage {
    init() {}
    var name: String { "build" }
    var produces: Set<ReleaseFact> { [.binaries] }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.identity.isTagOnly ? "tag-only release (no [[target]] in \(run.config.path))" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let targets = run.identity.targets
        let runner = BuildRunner(context: run.context)
        let inputs = run.identity.buildInputs
        if let artifacts = run.options.artifactsDirectory {
            try checkPrebuilt(in: artifacts, targets: targets, runner: runner, inputs: inputs, config: run.config)
            outputs.builtTargets = targets
            return "\(targets.count) target(s), prebuilt binaries from \(artifacts.path)"
        }
        let jobs = ParallelJobs.count(run.options.jobs)
        let report = await runner.run(targets: targets, config: run.config, inputs: inputs, jobs: jobs)
        if let failure = report.failure { throw failure }
        outputs.builtTargets = targets
        return "\(targets.count) target(s): " + targets.map(\.triple).joined(separator: ", ")
    }

    /// The packager reads `DIR/<binary-dir>/NAME`, else `DIR/NAME`: every binary must be at one of them.
    private func checkPrebuilt(
        in directory: URL, targets: [Target], runner: BuildRunner, inputs: BuildInputs, config: RelctlConfig
    ) throws {
        var missing: [String] = []
        for target in targets {
            let binaryDirectory = runner.binaryDirectory(for: target, config: config, inputs: inputs)
            for binary in config.build.binaries.filter({ !config.build.optionalBinaries.contains($0) }).map(
                target.executableName)
            {
                let candidates = [
                    directory.appendingPathComponent(binaryDirectory).appendingPathComponent(binary),
                    directory.appendingPathComponent(binary),
                ]
                if !candidates.contains(where: { FileSystem.exists($0) }) {
                    missing.append("\(target.triple): \(binaryDirectory)/\(binary)")
                }
            }
        }
        if !missing.isEmpty {
            throw BuildError.prebuiltMissing(directory: directory.path, missing: missing)
        }
    }
}
