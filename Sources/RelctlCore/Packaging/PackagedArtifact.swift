import Foundation

/// One archive written by `Packager`, with what `relctl package` reports about it.
public struct PackagedArtifact: Sendable, Encodable, Equatable {
    /// File name (`velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz`).
    var name: String
    var target: String
    var format: String
    var path: String
    var size: Int64
    var sha256: String
    /// Only when `[checksum] algorithm = "sha512"`, hashed from the same stream.
    var sha512: String?
    /// Entries in the archive, the top-level folder included.
    var entries: Int
    var seconds: Double
    /// Regular files in the archive with their SHA-256 (recorded for the SBOM; not in `--json`).
    var files: [ArchivedFile] = []
    /// `NAME.cdx.json` next to the archive, when an SBOM was written.
    var sbom: SBOMFile?

    enum CodingKeys: String, CodingKey {
        case name, target, format, path, size, sha256, sha512, entries, seconds, sbom
    }
}

extension PackagedArtifact {
    /// The artifact's line in `manifest.json`.
    var manifestEntry: ReleaseManifest.Artifact {
        ReleaseManifest.Artifact(name: name, target: target, format: format, size: size, sha256: sha256)
    }
}
