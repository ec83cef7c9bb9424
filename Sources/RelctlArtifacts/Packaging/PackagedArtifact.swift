import Foundation
import RelctlBasics

/// One archive written by `Packager`: the `Artifact` (what the manifest and the lists read) plus
/// what only packaging knows about it, as `relctl package` reports it.
@dynamicMemberLookup
public struct PackagedArtifact: Sendable, Encodable, Equatable {
    /// Kind `.archive`, produced by `package`, with its path and (with `[checksum] algorithm =
    /// "sha512"`) its SHA-512 from the same write stream.
    package var artifact: Artifact
    /// Entries in the archive, the top-level folder included.
    package var entries: Int
    package var seconds: Double
    /// `NAME.cdx.json` next to the archive (kind `.sbom`), when an SBOM was written.
    package var sbom: Artifact?

    public subscript<Value>(dynamicMember keyPath: KeyPath<Artifact, Value>) -> Value { artifact[keyPath: keyPath] }

    /// The artifact's line in `manifest.json`.
    package var manifestEntry: Artifact { artifact.manifestEntry }

    private enum CodingKeys: String, CodingKey {
        case name, target, format, path, size, sha256, sha512, entries, seconds, sbom
    }

    private enum SBOMKeys: String, CodingKey {
        case name, path, sha256
    }

    /// `relctl package --json`'s object: the file's keys (as `Artifact.FileReport` gives them),
    /// the packaging facts, and the SBOM as its name, path and SHA-256.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(artifact.name, forKey: .name)
        try container.encode(artifact.target, forKey: .target)
        try container.encode(artifact.format, forKey: .format)
        try container.encode(artifact.path ?? "", forKey: .path)
        try container.encode(artifact.size, forKey: .size)
        try container.encode(artifact.sha256, forKey: .sha256)
        try container.encodeIfPresent(artifact.sha512, forKey: .sha512)
        try container.encode(entries, forKey: .entries)
        try container.encode(seconds, forKey: .seconds)
        if let sbom {
            var nested = container.nestedContainer(keyedBy: SBOMKeys.self, forKey: .sbom)
            try nested.encode(sbom.name, forKey: .name)
            try nested.encode(sbom.path ?? "", forKey: .path)
            try nested.encode(sbom.sha256, forKey: .sha256)
        }
    }
}
