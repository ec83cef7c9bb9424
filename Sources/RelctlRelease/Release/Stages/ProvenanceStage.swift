import Foundation
import RelctlArtifacts
import RelctlBasics

/// Writes `{project}-{tag}.intoto.jsonl` (`ProvenanceWriter`, as `relctl sign` does in CI) after
/// the checksum file and its signatures, when `[provenance] enabled`: a DSSE envelope of the
/// SLSA provenance of exactly the files the checksum file lists, signed with the `[sign]` SSH key.
/// Its times are the release's epoch, so a dry run writes the same bytes as the real run.
struct ProvenanceStage: ReleaseStage {
    init() {}
    var name: String { "provenance" }
    var needs: Set<ReleaseFact> { [.checksums] }
    var produces: Set<ReleaseFact> { [.provenance] }
    /// The channels list their assets in the checksum file whose files this attests.
    var reads: Set<ReleaseFact> { [.channels] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        if run.options.rebuild { return "a rebuild signs nothing" }
        return run.config.provenance.enabled ? nil : "[provenance] enabled is false"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let checksums = outputs.checksums else { return nil }
        let key = try ProvenanceWriter.key(
            config: run.config, keysRoot: run.projectRoot, environment: run.context.environment)
        let inputs = try ProvenanceWriter.inputs(
            identity: run.identity, manifest: checksums.manifest, config: run.config, remoteURL: run.remoteURL)
        let url = try ProvenanceWriter.write(
            sums: checksums.sumsFile, inputs: inputs, key: key, environment: run.context.environment)
        outputs.provenance = url.lastPathComponent
        return
            "\(url.lastPathComponent) (\(checksums.manifest.artifacts.count) archive(s), signed by \(SSHKeyFingerprint.sha256(ofBlob: key.publicKeyBlob)))"
    }
}
