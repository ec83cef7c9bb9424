import Foundation
import RelctlBasics

/// One archive written by `Packager`, with what `relctl package` reports about it.
public struct PackagedArtifact: Sendable, Encodable, Equatable {
    /// File name (`velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz`).
    package var name: String
    package var target: String
    package var format: String
    package var path: String
    package var size: Int64
    package var sha256: String
    /// Only when `[checksum] algorithm = "sha512"`, hashed from the same stream.
    package var sha512: String?
    /// Entries in the archive, the top-level folder included.
    package var entries: Int
    package var seconds: Double
    /// `NAME.cdx.json` next to the archive, when an SBOM was written.
    package var sbom: SBOMFile?

    package enum CodingKeys: String, CodingKey {
        case name, target, format, path, size, sha256, sha512, entries, seconds, sbom
    }
}

extension PackagedArtifact {
    /// The artifact's line in `manifest.json`.
    package var manifestEntry: ReleaseManifest.Artifact {
        ReleaseManifest.Artifact(name: name, target: target, format: format, size: size, sha256: sha256)
    }
}
