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
        try AtomicFile.write(try encoded(), to: directory.appendingPathComponent(Self.fileName))
    }

    /// The document `JSONOutput.encode` gives, byte for byte, without its encoder holding the
    /// whole tree: each artifact is encoded on its own and set into the document's
    /// `artifacts` array. With 100,000 archives in one folder the whole-document encoder peaked
    /// at over 200 MB; this holds the text and one artifact (`ReleaseManifestTests` compares
    /// the two).
    package func encoded() throws -> String {
        guard !artifacts.isEmpty else { return try JSONOutput.encode(self) }
        var shell = self
        shell.artifacts = []
        // The first array in the sorted document is `artifacts` (the first key): its empty
        // form is replaced by the artifacts.
        let empty = try JSONOutput.encode(shell)
        guard let open = empty.range(of: "\"artifacts\" : ["), let close = empty[open.upperBound...].firstIndex(of: "]")
        else { return try JSONOutput.encode(self) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var text = String(empty[..<open.upperBound])
        text.reserveCapacity(empty.utf8.count + artifacts.count * 256)
        for (index, artifact) in artifacts.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            let object = String(decoding: try encoder.encode(artifact), as: UTF8.self)
            var first = true
            for line in object.split(separator: "\n", omittingEmptySubsequences: false) {
                if !first { text += "\n" }
                text += "    "
                text += line
                first = false
            }
        }
        text += "\n  "
        text += empty[close...]
        return text
    }
}
