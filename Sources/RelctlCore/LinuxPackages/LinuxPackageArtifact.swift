/// One package written, with what `relctl linux-package --json` reports and `SHA256SUMS` lists.
public struct LinuxPackageArtifact: Sendable, Encodable, Equatable {
    /// File name (`velostream_1.0.0_amd64.deb`).
    var name: String
    /// `deb` or `rpm`.
    var format: String
    var target: String
    var path: String
    var size: Int64
    var sha256: String
    var sha512: String

    func digest(_ algorithm: ChecksumAlgorithm) -> String { algorithm == .sha256 ? sha256 : sha512 }
}
