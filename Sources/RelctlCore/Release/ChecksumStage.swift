import Foundation

/// Writes the combined checksum file (per `[checksum] algorithm`) and `manifest.json` from the
/// packaged archives held in memory: no archive is read again and no name is parsed back.
struct ChecksumStage: ReleaseStage {
    init() {}
    var name: String { "checksum" }
    var needs: Set<ReleaseFact> { [.archives] }
    var produces: Set<ReleaseFact> { [.checksums] }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let algorithm = try ChecksumAlgorithm(id: run.config.checksum.algorithm, file: run.config.path)
        let archives = outputs.archives ?? []
        let set = try ChecksumWriter.writeRelease(
            archives, identity: run.identity, algorithm: algorithm, in: run.stagingDirectory,
            packages: outputs.linuxPackages ?? [])
        outputs.checksums = set
        return "\(algorithm.sumsFileName) and \(ReleaseManifest.fileName) (\(archives.count) archive(s))"
    }
}
