import RelctlBasics

/// One package written, with what `relctl linux-package --json` reports and `SHA256SUMS` lists.
public struct LinuxPackageArtifact: Sendable, Encodable, Equatable {
    /// File name (`velostream_1.0.0_amd64.deb`).
    package var name: String
    /// `deb` or `rpm`.
    package var format: String
    package var target: String
    package var path: String
    package var size: Int64
    package var sha256: String
    package var sha512: String

    package func digest(_ algorithm: ChecksumAlgorithm) -> String { algorithm == .sha256 ? sha256 : sha512 }
}
