import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Builds the `[[image]]` container images from the built binaries into the staging folder
/// (`oci/<name>/`), after `package`. The dry run builds them for real in the scratch clone, so
/// it prints the index digests the real run will push.
struct ImageStage: ReleaseStage {
    init() {}
    var name: String { "image" }
    var needs: Set<ReleaseFact> { [.binaries] }
    var produces: Set<ReleaseFact> { [.images] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        if run.config.images.isEmpty { return "no [[image]] in relctl.toml" }
        return Self.imageNames(run, outputs).isEmpty ? "no Linux target of any [[image]] is selected" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let targets = outputs.builtTargets ?? run.identity.targets
        run.progress.update("building \(run.config.images.count) image(s)")
        let images = try await ImageBuilder(context: run.context).build(
            config: run.config, release: Self.release(run), targets: targets, outputDirectory: run.stagingDirectory,
            binaryRoot: run.options.artifactsDirectory, names: Self.imageNames(run, outputs))
        outputs.images = images
        return images.map { "\($0.name) \($0.digest)" }.joined(separator: ", ")
    }

    /// The images with at least one selected target (a macOS-only `--target` builds none).
    static func imageNames(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> [String] {
        let targets = outputs.builtTargets ?? run.identity.targets
        return run.config.images.filter { !$0.selectTargets(targets).isEmpty }.map(\.name)
    }

    /// The release facts an image records, from the identity the preflight resolved.
    static func release(_ run: ReleaseRun) -> ImageRelease {
        ImageRelease(
            tag: run.tag, version: run.identity.version.description, commit: run.identity.commit,
            time: run.identity.sourceDateEpoch,
            source: run.remoteURL.flatMap { RepositoryLinks(remoteURL: $0)?.baseURL })
    }
}
