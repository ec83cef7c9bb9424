import Crypto
import Foundation

/// Writes `<archive>.sha256`, `SHA256SUMS` and `manifest.json` for the run's archives.
/// (Interim implementation until the checksums code lands on main.)
public struct ChecksumStage: ReleaseStage {
    public init() {}
    public var name: String { "checksum" }

    public func perform(_ run: ReleaseRun) async throws -> String? {
        var lines: [String] = []
        for index in run.artifacts.indices {
            let url = run.distDirectory.appendingPathComponent(run.artifacts[index].name)
            let data = try Data(contentsOf: url)
            let hex = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            run.artifacts[index].sha256 = hex
            run.artifacts[index].size = Int64(data.count)
            let line = "\(hex)  \(run.artifacts[index].name)\n"
            try AtomicFile.write(line, to: url.appendingPathExtension("sha256"))
            lines.append(line)
        }
        run.artifacts.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        try AtomicFile.write(lines.sorted().joined(), to: run.distDirectory.appendingPathComponent("SHA256SUMS"))
        var manifest = ReleaseManifest(project: run.config.project.name, tag: run.tag, version: run.version.description, commit: run.commit)
        manifest.upsert(run.artifacts)
        try manifest.write(in: run.distDirectory)
        return "SHA256SUMS and manifest.json (\(run.artifacts.count) archive(s))"
    }
}
