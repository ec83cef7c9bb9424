import Crypto
import Foundation
import RelctlBasics

/// An SBOM written next to its archive, with the digests of the bytes written, so the checksum
/// stage lists it without reading it back.
package struct SBOMFile: Sendable, Encodable, Equatable {
    /// `NAME.cdx.json`.
    package var name: String
    package var path: String
    package var sha256: String
    package var sha512: String

    package enum CodingKeys: String, CodingKey { case name, path, sha256 }

    package init(url: URL, bytes: Data) {
        name = url.lastPathComponent
        path = url.path
        sha256 = FileHasher.hex(SHA256.hash(data: bytes))
        sha512 = FileHasher.hex(SHA512.hash(data: bytes))
    }

    package func digest(_ algorithm: ChecksumAlgorithm) -> String { algorithm == .sha256 ? sha256 : sha512 }
}
