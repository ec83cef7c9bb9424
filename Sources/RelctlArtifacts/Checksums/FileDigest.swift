import Foundation
import RelctlBasics

/// What hashing one file produced: its size and one lowercase hex digest per algorithm asked for.
package struct FileDigest: Sendable, Equatable {
    package var url: URL
    package var size: Int64
    package var digests: [ChecksumAlgorithm: String]

    package init(url: URL, size: Int64, digests: [ChecksumAlgorithm: String]) {
        self.url = url
        self.size = size
        self.digests = digests
    }

    /// The digest for `algorithm`; empty if it was not computed.
    package subscript(_ algorithm: ChecksumAlgorithm) -> String { digests[algorithm] ?? "" }
}

/// What `checksum` keeps of one file it hashed (`FileHasher.hashFiles`): 64 bytes, no heap for
/// the default SHA-256.
package struct HashedFile: Sendable {
    package var size: Int64
    package var sha256: SHA256Bytes
    /// Lowercase hex, when a SHA-512 was asked for.
    package var sha512: String?

    /// Lowercase hex of `algorithm`'s digest; empty when it was not computed.
    package func hex(_ algorithm: ChecksumAlgorithm) -> String {
        switch algorithm {
        case .sha256: return sha256.hex
        case .sha512: return sha512 ?? ""
        }
    }
}
