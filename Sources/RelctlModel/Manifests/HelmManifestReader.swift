import Foundation
import RelctlBasics

/// A Helm `Chart.yaml`: `version` (kind `helm`) or `appVersion` (kind `helm-app-version`), both
/// compared with the tag's version by SemVer, as Helm itself requires of `version`.
package struct HelmManifestReader: ManifestReader {
    package static let versionKind = "helm"
    package static let appVersionKind = "helm-app-version"

    /// `version` or `appVersion`.
    package var key: String
    package var comparison: VersionComparison { .semver }

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let chart = try HelmChartFile.read(url, displayPath: displayPath)
        guard let value = chart[key] else {
            throw ManifestError.noVersion(
                path: displayPath,
                hint: "expected a top-level `\(key): X.Y.Z` line (Helm charts carry `version` and `appVersion`)")
        }
        return ManifestVersion(text: value.text, foundIn: displayPath, line: value.line)
    }
}
