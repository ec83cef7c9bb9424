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

/// The version a manifest declares, as written, and where it came from.
public struct ManifestVersion: Sendable, Equatable {
    public var text: String
    /// The file the version was actually found in (a Cargo workspace root, for inherited versions).
    public var foundIn: String
    /// The 1-based line of the version text, for `bump --write` and messages.
    public var line: Int?

    public init(text: String, foundIn: String, line: Int? = nil) {
        self.text = text
        self.foundIn = foundIn
        self.line = line
    }
}

/// How a manifest's version is compared with the tag's.
public enum VersionComparison: Sendable {
    /// SemVer 2.0.0 equality (build metadata included).
    case semver
    /// PEP 440 normalisation: `1.2.3rc1` equals `v1.2.3-rc.1`.
    case pep440
}
