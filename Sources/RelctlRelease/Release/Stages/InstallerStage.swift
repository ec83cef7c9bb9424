import Foundation
import RelctlArtifacts
import RelctlBasics

/// Writes `{project}-installer.sh` and `.ps1` into the staging folder from the release's
/// manifest (built in memory from the packaged archives), when `[installer] enabled`. Before the
/// checksum stage, which lists them in `SHA256SUMS` (so they are signed and published with the
/// archives), and before the notes, whose Install section shows the one-line command.
struct InstallerStage: ReleaseStage {
    init() {}
    var name: String { "installer" }
    var needs: Set<ReleaseFact> { [.archives] }
    var produces: Set<ReleaseFact> { [.installers] }
    var runsAlongside: Bool { true }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.installer.enabled ? nil : "[installer] enabled is false"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let manifest = ChecksumWriter.releaseManifest(outputs.archives ?? [], identity: run.identity)
        let report = try InstallerWriter.write(
            manifest: manifest, into: run.stagingDirectory, shown: ChecksumWriter.defaultDirectory,
            config: run.config, keysRoot: run.projectRoot, repository: nil, remoteURL: run.remoteURL,
            context: run.context)
        let names = report.files.map(\.lastPathComponent)
        outputs.installers = names
        return names.joined(separator: ", ")
    }
}
