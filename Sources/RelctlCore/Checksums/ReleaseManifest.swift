import Foundation
import RelctlBasics

/// `dist/manifest.json` (contract schema 1): the machine-readable record of a release's
/// artifacts that CI, release notes and installers read.
public struct ReleaseManifest: Codable, Sendable, Equatable {
    public struct Artifact: Codable, Sendable, Equatable {
        package var name: String
        package var target: String
        package var format: String
        package var size: Int64
        package var sha256: String

        package init(name: String, target: String, format: String, size: Int64, sha256: String) {
            self.name = name
            self.target = target
            self.format = format
            self.size = size
            self.sha256 = sha256
        }
    }

    package static let fileName = "manifest.json"

    package var schema: Int = 1
    package var project: String
    package var tag: String
    package var version: String
    package var commit: String
    /// Sorted bytewise by name.
    public var artifacts: [Artifact]

    package init(project: String, tag: String, version: String, commit: String, artifacts: [Artifact] = []) {
        self.project = project
        self.tag = tag
        self.version = version
        self.commit = commit
        self.artifacts = artifacts
    }

    /// Reads `DIR/manifest.json`; nil when absent, bad input (exit 2) when unreadable.
    package static func read(in directory: URL) throws -> ReleaseManifest? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileSystem.contents(of: url) else { return nil }
        do { return try JSONDecoder().decode(ReleaseManifest.self, from: data) } catch {
            throw ChecksumError.notAManifest(path: url.path, reason: "\(error)")
        }
    }

    /// Adds or replaces artifacts by name, keeping the list sorted bytewise.
    package mutating func upsert(_ new: [Artifact]) {
        var byName = Dictionary(artifacts.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        for artifact in new { byName[artifact.name] = artifact }
        artifacts = byName.values.sorted { bytewiseLess($0.name, $1.name) }
    }

    /// Writes `DIR/manifest.json` atomically.
    package func write(in directory: URL) throws {
        try AtomicFile.write(try JSONOutput.encode(self), to: directory.appendingPathComponent(Self.fileName))
    }
}
