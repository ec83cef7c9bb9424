import Foundation
import RelctlArtifacts
import RelctlBasics

/// Writes the combined checksum file (per `[checksum] algorithm`) and `manifest.json` from the
/// packaged archives held in memory: no archive is read again and no name is parsed back. The
/// installers the installer stage wrote are listed too: every file a user downloads from the
/// release is in the list, so it is signed and published with the archives.
struct ChecksumStage: ReleaseStage {
    init() {}
    var name: String { "checksum" }
    var needs: Set<ReleaseFact> { [.archives] }
    var produces: Set<ReleaseFact> { [.checksums] }
    /// Every file the checksum file lists: the installers (hashed here) and the packages. The
    /// images and repositories are not release assets, so it does not wait for them.
    var reads: Set<ReleaseFact> { [.installers, .linuxPackages, .npmPackages, .msiInstallers, .wheels] }
    var runsAlongside: Bool { true }

    func perform(_ run: ReleaseRun, _ outputs: inout ReleaseOutputs) async throws -> String? {
        let algorithm = try ChecksumAlgorithm(id: run.config.checksum.algorithm, file: run.config.path)
        let archives = outputs.archives ?? []
        let installers = try await FileHasher.digests(
            of: (outputs.installers ?? []).map { run.stagingDirectory.appendingPathComponent($0) },
            algorithms: [algorithm])
        let set = try ChecksumWriter.writeRelease(
            archives, identity: run.identity, algorithm: algorithm, in: run.stagingDirectory,
            others: installers.map {
                ChecksumFile.Entry(name: $0.url.lastPathComponent, digest: $0[algorithm], algorithm: algorithm)
            },
            packages: (outputs.linuxPackages ?? []) + (outputs.wheels.map { $0.wheels + $0.sboms } ?? []),
            listedInManifest: (outputs.npmPackages ?? []) + (outputs.msiInstallers ?? []))
        outputs.checksums = set
        return "\(algorithm.sumsFileName) and \(ReleaseManifest.fileName) (\(archives.count) archive(s))"
    }
}
