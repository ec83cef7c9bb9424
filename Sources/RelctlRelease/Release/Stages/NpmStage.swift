import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlDistribution

/// Writes the `[npm]` packages into the staging folder from the binaries the build stage made
/// (the ones the archives hold), before the checksum stage, which lists them in `SHA256SUMS` and
/// `manifest.json` so they are signed, covered by the provenance and published with the archives.
struct NpmStage: ReleaseStage {
    init() {}
    var name: String { "npm" }
    var needs: Set<ReleaseFact> { [.binaries] }
    var produces: Set<ReleaseFact> { [.npmPackages] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.npm == nil ? "no [npm] in \(run.config.path)" : nil
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let packages = try await NpmPackageBuilder(context: run.context).write(
            config: run.config, inputs: run.identity.packagingInputs, targets: outputs.builtTargets ?? run.identity.targets,
            remoteURL: run.remoteURL, into: run.stagingDirectory, binaryRoot: run.options.artifactsDirectory)
        outputs.npmPackages = packages
        return packages.map(\.name).joined(separator: ", ")
    }
}

/// With `--publish` and `[npm]`: sends the packages to the npm registry once the release is out,
/// as `relctl publish TAG --registry npm` does (platform packages first, the main package last;
/// what the registry holds already is left). A failure takes nothing back (the tag is out) and
/// says how to finish; a dry run asks the registry what it holds and sends nothing.
struct NpmPublishStage: ReleaseStage {
    init() {}
    var name: String { "npm-publish" }
    var needs: Set<ReleaseFact> { [.npmPackages, .tag] }
    var produces: Set<ReleaseFact> { [.publishedNpm] }
    var dryRun: DryRunBehaviour { .rehearsal }
    var needsPassingPreflight: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        guard run.config.npm != nil else { return "no [npm] in \(run.config.path)" }
        return run.options.publish ? nil : "the npm packages are published with --publish"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let settings = run.config.npm else { return nil }
        run.progress.update("publishing the npm packages")
        // Once dist/ is sealed the packages live there, no longer in the staging folder.
        let folder = outputs.distFiles != nil ? run.distDirectory : run.stagingDirectory
        let packages = (outputs.npmPackages ?? []).map { (folder.appendingPathComponent($0.name), "dist/" + $0.name) }
        let results: [(name: String, outcome: NpmPublisher.Outcome)]
        do {
            let token = try NpmPublisher.token(environment: run.context.environment, settings: settings)
            let publisher = NpmPublisher(
                settings: settings, http: RetryingHTTPClient(base: run.context.http), console: run.context.console)
            results = try await publisher.publish(
                packages, version: run.identity.version, token: token, dryRun: run.isDryRun)
        } catch let error as RelctlError where !run.isDryRun {
            throw ProblemList(
                exitCode: error.exitCode,
                diagnostics: error.diagnostics + [
                    Diagnostic(
                        "\(run.tag) is released; once fixed, finish with `relctl publish \(run.tag) --registry npm`")
                ])
        }
        let sent = results.filter { $0.outcome != .alreadyPublished }.map(\.name)
        outputs.publishedNpm = sent
        return results.map { "\($0.name): \($0.outcome.rawValue)" }.joined(separator: ", ")
    }
}
