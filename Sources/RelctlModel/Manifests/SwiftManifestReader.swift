import Foundation
import RelctlBasics

/// A Swift source file (Swift packages have no version field in Package.swift): the first
/// `let version = "…"` (or `var`, or with `: String`), or a custom `pattern`.
package struct SwiftManifestReader: ManifestReader {
    package static let defaultPattern = #"(?:let|var)\s+version\s*(?::\s*String\s*)?=\s*"(?<version>[^"]+)""#
    package var comparison: VersionComparison { .semver }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        do {
            return try RegexManifestReader.match(
                source.pattern ?? Self.defaultPattern, in: url, displayPath: displayPath)
        } catch ManifestError.noVersion where source.pattern == nil {
            throw ManifestError.noVersion(
                path: displayPath, hint: "expected a declaration like `let version = \"1.2.3\"`, or give a `pattern`")
        }
    }
}
