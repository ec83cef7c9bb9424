import Foundation
import RelctlArtifacts
import RelctlBasics

/// `[windows] msi = true`: writes one MSI installer per Windows target into the staging folder,
/// from the binaries the build stage made (the ones the zip holds), signed when a Windows signing
/// key is set. The checksum stage lists them in `SHA256SUMS` and `manifest.json`, so they are
/// signed, covered by the provenance and published with the archives, and winget points at them.
struct MSIStage: ReleaseStage {
    init() {}
    var name: String { "msi" }
    var needs: Set<ReleaseFact> { [.binaries] }
    var produces: Set<ReleaseFact> { [.msiInstallers] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.windows.msi ? nil : "no `[windows] msi = true` in \(run.config.path)"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let targets = outputs.builtTargets ?? run.identity.targets
        let signer = try OsslsigncodeSigner.configured(
            run.config.windows, config: run.config.path, root: run.projectRoot, environment: run.context.environment)
        let installers = try await MSIBuilder(context: run.context).write(
            config: run.config, inputs: run.identity.packagingInputs, targets: targets, into: run.stagingDirectory,
            binaryRoot: run.options.artifactsDirectory, signer: signer,
            executableSigner: try AuthenticodeSigner.load(config: run.config, keysRoot: run.projectRoot, context: run.context))
        outputs.msiInstallers = installers
        var parts = installers.map(\.name)
        for target in MSIBuilder.skipped(targets) {
            parts.append("no MSI for \(target.triple) (wixl writes x64 and x86 packages only)")
        }
        return parts.isEmpty ? "no Windows target to package" : parts.joined(separator: ", ")
    }
}
