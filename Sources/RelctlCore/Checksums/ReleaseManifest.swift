import Foundation

/// `dist/manifest.json` (contract schema 1): the machine-readable record of a release's
/// artifacts that CI, release notes and installers read.
public struct ReleaseManifest: Codable, Sendable, Equatable {
    public struct Artifact: Codable, Sendable, Equatable {
        var name: String
        var target: String
        var format: String
        var size: Int64
        var sha256: String

        init(name: String, target: String, format: String, size: Int64, sha256: String) {
            self.name = name
            self.target = target
            self.format = format
            self.size = size
            self.sha256 = sha256
        }
    }

    static let fileName = "manifest.json"

    var schema: Int = 1
    var project: String
    var tag: String
    var version: String
    var commit: String
    /// Sorted bytewise by name.
    public var artifacts: [Artifact]

    init(project: String, tag: String, version: String, commit: String, artifacts: [Artifact] = []) {
        self.project = project
        self.tag = tag
        self.version = version
        self.commit = commit
        self.artifacts = artifacts
    }

    /// Reads `DIR/manifest.json`; nil when absent, bad input (exit 2) when unreadable.
    static func read(in directory: URL) throws -> ReleaseManifest? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileSystem.contents(of: url) else { return nil }
        do { return try JSONDecoder().decode(ReleaseManifest.self, from: data) } catch {
            throw ChecksumError.notAManifest(path: url.path, reason: "\(error)")
        }
    }

    /// Adds or replaces artifacts by name, keeping the list sorted bytewise.
    mutating func upsert(_ new: [Artifact]) {
        var byName = Dictionary(artifacts.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for artifact in new { byName[artifact.name] = artifact }
        artifacts = byName.values.sorted { bytewiseLess($0.name, $1.name) }
    }

    /// Writes `DIR/manifest.json` atomically.
    func write(in directory: URL) throws {
        try AtomicFile.write(try JSONOutput.encode(self), to: directory.appendingPathComponent(Self.fileName))
    }
}
