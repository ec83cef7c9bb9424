import Foundation

struct ArchiveSettings: Sendable {
    /// The file stem and the single top-level folder.
    var name: Template = Template("{project}-{tag}-{target}")
    var files: [PathMapping] = []
    var trees: [PathMapping] = []
    var setupEnv: Bool = true
    var symlinks: [SymlinkRule] = []
    /// A shell command run once per archive in an empty staging folder (cwd), with RELCTL_TARGET,
    /// RELCTL_VERSION… set; every file it writes there is added at the archive's root.
    var stage: Template?
    /// Compression level (format's default when nil): gzip/zip 1-9, xz 0-9, zstd 1-19.
    var compressionLevel: Int?
    /// Glob patterns (relative to a tree's root) left out of trees.
    var exclude: [String] = []
    init() {}
}
