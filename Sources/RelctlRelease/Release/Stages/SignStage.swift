import Foundation
import RelctlArtifacts
import RelctlBasics

/// Signs the checksum file the checksum stage wrote, with `ReleaseSigner` (the same code as
/// `relctl sign`): `SHA256SUMS.sig` and/or `SHA256SUMS.minisig` in the staging folder. Keys come
/// from the environment or from `[sign]` paths in the project, also on a dry run (the scratch
/// clone lacks git-ignored key folders), so a dry run proves the keys work.
struct SignStage: ReleaseStage {
    init() {}
    var name: String { "sign" }
    var needs: Set<ReleaseFact> { [.checksums] }
    var produces: Set<ReleaseFact> { [.signatures] }
    /// The channels list their assets in the checksum file this signs.
    var reads: Set<ReleaseFact> { [.channels] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        if run.options.rebuild { return "a rebuild signs nothing" }
        return ReleaseSigner.hasKeys(run.config.sign, environment: run.context.environment) ? nil : "no [sign] key"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let sums = outputs.checksums?.sumsFile else { return nil }
        let report = try ReleaseSigner.sign(
            sums: sums.path, config: run.config, context: run.context, keysRoot: run.projectRoot)
        let names = report.signatures.map(\.lastPathComponent)
        outputs.signatures = names
        return names.joined(separator: ", ")
    }
}
