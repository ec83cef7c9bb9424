import Foundation

/// Reads the version out of one kind of manifest.
protocol ManifestReader: Sendable {
    /// How versions of this kind compare with a tag's.
    var comparison: VersionComparison { get }
    /// Reads the version. `url` is the manifest; `source` carries kind-specific settings (pattern).
    func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion
}
