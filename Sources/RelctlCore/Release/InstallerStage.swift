import Foundation

/// Writes `{project}-installer.sh` and `.ps1` into the staging folder from the manifest the
/// checksum stage produced (in memory), when `[installer] enabled`; before the notes, whose
/// Install section shows the one-line command.
struct InstallerStage: ReleaseStage {
    init() {}
    var name: String { "installer" }
    var needs: Set<ReleaseFact> { [.checksums] }
    var produces: Set<ReleaseFact> { [.installers] }

    func skipReason(_ run: ReleaseRun, _ outputs: ReleaseOutputs) -> String? {
        run.config.installer.enabled ? nil : "[installer] enabled is false"
    }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        guard let manifest = outputs.checksums?.manifest else { return nil }
        let report = try InstallerWriter.write(
            manifest: manifest, into: run.stagingDirectory, shown: ChecksumWriter.defaultDirectory,
            config: run.config, keysRoot: run.projectRoot, repository: nil, remoteURL: run.remoteURL,
            context: run.context)
        let names = report.files.map(\.lastPathComponent)
        outputs.installers = names
        return names.joined(separator: ", ")
    }
}
