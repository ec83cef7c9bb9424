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
