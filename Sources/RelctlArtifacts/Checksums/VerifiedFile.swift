import RelctlBasics

/// The result of checking one file named in (or missing from) a checksum file.
public struct VerifiedFile: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// Hashes to the listed digest.
        case ok
        /// Present but hashes to something else.
        case changed
        /// Listed but not on disk.
        case missing
        /// An archive in the folder that the checksum file does not list.
        case unlisted
    }

    public var name: String
    public var status: Status
    package var algorithm: ChecksumAlgorithm
    /// The listed digest (nil for unlisted files).
    package var expected: String?
    /// The digest now on disk (nil for missing files).
    package var actual: String?
    /// The line in the checksum file (nil for unlisted files).
    package var line: Int?
}
