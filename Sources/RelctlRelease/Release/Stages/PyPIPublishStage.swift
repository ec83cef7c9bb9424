import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution

/// With `--publish` and `[pypi]`: uploads the wheels to the index once the release is out, as
/// `relctl publish TAG` does; what the index already holds with the same SHA-256 is left alone.
/// Like the forges, a failure here takes nothing back (the tag is out) and says how to finish; a
/// dry run reads the index and says what a real run would upload.
struct PyPIPublishStage: ReleaseStage {
    init() {}
    var name: String { "pypi-publish" }
    var needs: Set<ReleaseFact> { [.wheels, .pushedTag] }
    var produces: Set<ReleaseFact> { [.publishedWheels] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        guard run.config.pypi != nil else { return "no [pypi] in \(run.config.path)" }
        return run.options.publish
            ? nil : "no --publish (publish later with `relctl publish \(run.tag) --registry pypi`)"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let settings = run.config.pypi else { return nil }
        run.progress.update("uploading the wheels")
        // Once dist/ is sealed the wheels live there, no longer in the staging folder.
        let dist = outputs.distFiles != nil ? run.distDirectory : run.stagingDirectory
        let wheels = (outputs.wheels?.wheels ?? []).map {
            PyPIPublisher.Wheel(name: $0.name, url: dist.appendingPathComponent($0.name), sha256: $0.sha256)
        }
        guard !wheels.isEmpty else { return "no wheel to upload" }
        do {
            let token = try PyPIPublisher.token(environment: run.context.environment)
            let version = try WheelName.version(run.identity.version.description)
            let metadata = try PythonWheelBuilder.metadata(settings, config: run.config, version: version)
            let report = try await PyPIPublisher(http: run.context.http).publish(
                wheels, settings: settings, metadata: metadata, token: token, context: run.context,
                rehearse: run.isDryRun)
            outputs.publishedWheels = report.uploaded + report.unchanged
            return report.summary
        } catch let error as RelctlError where !run.isDryRun {
            throw ProblemList(
                exitCode: error.exitCode,
                diagnostics: error.diagnostics + [
                    Diagnostic(
                        "\(run.tag) is released; once fixed, finish with `relctl publish \(run.tag) --registry pypi`")
                ])
        }
    }
}
