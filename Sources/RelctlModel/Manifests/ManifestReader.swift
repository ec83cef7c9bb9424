import Foundation
import RelctlBasics

/// Reads the version out of one kind of manifest. The built-ins are in this folder; a program
/// built on relctl's libraries adds its own through `RelctlExtensions` (Examples/relctl-gradle).
/// A reader throws a `RelctlError` naming `displayPath` when the file holds no version.
public protocol ManifestReader: Sendable {
    /// How versions of this kind compare with a tag's.
    var comparison: VersionComparison { get }
    /// Reads the version. `url` is the manifest; `source` carries kind-specific settings (pattern).
    func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion
}
