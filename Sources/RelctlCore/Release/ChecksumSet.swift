import Foundation

/// What the checksum stage wrote.
public struct ChecksumSet: Sendable {
    public var algorithm: ChecksumAlgorithm
    /// The combined file (`SHA256SUMS`).
    public var sumsFile: URL
    public var manifest: ReleaseManifest
}
