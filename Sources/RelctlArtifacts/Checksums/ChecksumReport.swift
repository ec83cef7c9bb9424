import RelctlBasics

/// What `relctl checksum` wrote, per folder (the `--json` document).
public struct ChecksumReport: Codable, Sendable, Equatable {
    public struct Folder: Codable, Sendable, Equatable {
        /// The folder, as shown to the user.
        public var directory: String
        /// The combined file written (`SHA256SUMS`), relative to `directory`.
        public var sums: String
        /// The manifest written (`manifest.json`), relative to `directory`.
        public var manifest: String
        /// The archives hashed in this run, sorted bytewise by name.
        public var hashed: [String]
        /// The manifest as written.
        public var release: ReleaseManifest
    }

    package var algorithm: ChecksumAlgorithm
    public var folders: [Folder]
}
