import Crypto
import Foundation

/// An SBOM written next to its archive, with the digests of the bytes written, so the checksum
/// stage lists it without reading it back.
struct SBOMFile: Sendable, Encodable, Equatable {
    /// `NAME.cdx.json`.
    var name: String
    var path: String
    var sha256: String
    var sha512: String

    enum CodingKeys: String, CodingKey { case name, path, sha256 }

    init(url: URL, bytes: Data) {
        name = url.lastPathComponent
        path = url.path
        sha256 = FileHasher.hex(SHA256.hash(data: bytes))
        sha512 = FileHasher.hex(SHA512.hash(data: bytes))
    }

    func digest(_ algorithm: ChecksumAlgorithm) -> String { algorithm == .sha256 ? sha256 : sha512 }
}
