import Foundation

/// What hashing one file produced: its size and one lowercase hex digest per algorithm asked for.
public struct FileDigest: Sendable, Equatable {
    public var url: URL
    public var size: Int64
    public var digests: [ChecksumAlgorithm: String]

    public init(url: URL, size: Int64, digests: [ChecksumAlgorithm: String]) {
        self.url = url
        self.size = size
        self.digests = digests
    }

    /// The digest for `algorithm`; empty if it was not computed.
    public subscript(_ algorithm: ChecksumAlgorithm) -> String { digests[algorithm] ?? "" }
}
