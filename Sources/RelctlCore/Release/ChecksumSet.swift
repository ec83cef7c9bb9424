import Foundation

/// What the checksum stage wrote.
struct ChecksumSet: Sendable {
    var algorithm: ChecksumAlgorithm
    /// The combined file (`SHA256SUMS`).
    var sumsFile: URL
    var manifest: ReleaseManifest
}
