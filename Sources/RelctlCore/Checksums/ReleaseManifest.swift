import Foundation

/// `dist/manifest.json` (contract schema 1): the machine-readable record of a release's
/// artifacts that CI, release notes and installers read.
public struct ReleaseManifest: Codable, Sendable, Equatable {
    public struct Artifact: Codable, Sendable, Equatable {
        public var name: String
        public var target: String
        public var format: String
        public var size: Int64
        public var sha256: String

        public init(name: String, target: String, format: String, size: Int64, sha256: String) {
            self.name = name
            self.target = target
            self.format = format
            self.size = size
            self.sha256 = sha256
        }
    }

    public static let fileName = "manifest.json"

    public var schema: Int = 1
    public var project: String
    public var tag: String
    public var version: String
    public var commit: String
    /// Sorted bytewise by name.
    public var artifacts: [Artifact]

    public init(project: String, tag: String, version: String, commit: String, artifacts: [Artifact] = []) {
        self.project = project
        self.tag = tag
        self.version = version
        self.commit = commit
        self.artifacts = artifacts
    }

    /// Reads `DIR/manifest.json`; nil when absent, bad input (exit 2) when unreadable.
    public static func read(in directory: URL) throws -> ReleaseManifest? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileSystem.contents(of: url) else { return nil }
        do { return try JSONDecoder().decode(ReleaseManifest.self, from: data) } catch {
            throw ChecksumError.notAManifest(path: url.path, reason: "\(error)")
        }
    }

    /// Adds or replaces artifacts by name, keeping the list sorted bytewise.
    public mutating func upsert(_ new: [Artifact]) {
        var byName = Dictionary(artifacts.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for artifact in new { byName[artifact.name] = artifact }
        artifacts = byName.values.sorted { bytewiseLess($0.name, $1.name) }
    }

    /// Writes `DIR/manifest.json` atomically.
    public func write(in directory: URL) throws {
        try AtomicFile.write(try JSONOutput.encode(self), to: directory.appendingPathComponent(Self.fileName))
    }
}
