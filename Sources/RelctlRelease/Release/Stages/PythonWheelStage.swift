import Foundation
import RelctlArtifacts
import RelctlBasics

/// Writes the `[pypi]` wheels of the targets PyPI has a platform tag for into the staging folder,
/// from the binaries the build stage made (the ones the archives hold), before the checksum stage,
/// which lists them (and their SBOMs) in `SHA256SUMS` and `manifest.json`'s `packages`, so they
/// are signed, covered by the provenance and published with the archives.
struct PythonWheelStage: ReleaseStage {
    init() {}
    var name: String { "python-wheel" }
    var needs: Set<ReleaseFact> { [.binaries] }
    var produces: Set<ReleaseFact> { [.wheels] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.pypi == nil ? "no [pypi] in \(run.config.path)" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let settings = run.config.pypi else { return nil }
        let targets = outputs.builtTargets ?? run.identity.targets
        let written = try await PythonWheelBuilder(context: run.context).write(
            settings: settings, config: run.config, inputs: run.identity.packagingInputs, targets: targets,
            into: run.stagingDirectory, binaryRoot: run.options.artifactsDirectory)
        outputs.wheels = written
        var summary =
            written.wheels.isEmpty ? "no target PyPI has a tag for" : written.wheels.map(\.name).joined(separator: ", ")
        if !written.skipped.isEmpty { summary += " (no wheel for \(written.skipped.joined(separator: ", ")))" }
        return summary
    }
}
