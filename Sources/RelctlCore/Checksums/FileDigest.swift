import Foundation

/// What hashing one file produced: its size and one lowercase hex digest per algorithm asked for.
struct FileDigest: Sendable, Equatable {
    var url: URL
    var size: Int64
    var digests: [ChecksumAlgorithm: String]

    init(url: URL, size: Int64, digests: [ChecksumAlgorithm: String]) {
        self.url = url
        self.size = size
        self.digests = digests
    }

    /// The digest for `algorithm`; empty if it was not computed.
    subscript(_ algorithm: ChecksumAlgorithm) -> String { digests[algorithm] ?? "" }
}
