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

    /// The digests already computed while the file was written.
    package init(url: URL, sha256: String, sha512: String) {
        name = url.lastPathComponent
        path = url.path
        self.sha256 = sha256
        self.sha512 = sha512
    }

    package func digest(_ algorithm: ChecksumAlgorithm) -> String { algorithm == .sha256 ? sha256 : sha512 }
}
