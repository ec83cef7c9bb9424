import Foundation
import RelctlBasics

/// What the checksum stage wrote.
package struct ChecksumSet: Sendable {
    package var algorithm: ChecksumAlgorithm
    /// The combined file (`SHA256SUMS`).
    package var sumsFile: URL
    package var manifest: ReleaseManifest
}
