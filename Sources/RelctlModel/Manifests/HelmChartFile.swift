import Foundation
import RelctlBasics

/// The top-level scalar keys of a `Chart.yaml` (`apiVersion`, `name`, `version`, `appVersion`), with
/// their lines. Chart.yaml is YAML; relctl reads only unindented `key: value` lines, which is where
/// Helm's schema puts these keys, and keeps the file's bytes as written.
package struct HelmChartFile: Sendable {
    package static let name = "Chart.yaml"

    /// `path/Chart.yaml` for a chart folder as written in relctl.toml.
    /// `Chart.yaml` in `folder`, relative to the project: the chart at the project's root (`.`) is
    /// `Chart.yaml`, the same file a `[[version]]` names that way (issue 54).
    package static func fileName(in folder: String) -> String {
        var folder = Substring(folder)
        while folder.hasPrefix("./") { folder = folder.dropFirst(2) }
        if folder == "." || folder.isEmpty { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    package struct Value: Sendable, Equatable {
        package var text: String
        /// 1-based.
        package var line: Int
    }

    package var values: [String: Value] = [:]

    package init(text: String) {
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            guard let first = line.first, first != " ", first != "\t", first != "#", first != "-",
                let colon = line.firstIndex(of: ":")
            else { continue }
            let key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            var value = String(line[line.index(after: colon)...])
            if let comment = value.range(of: " #") { value = String(value[..<comment.lowerBound]) }
            value = value.trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let quote = value.first, quote == "\"" || quote == "'", value.last == quote {
                value = String(value.dropFirst().dropLast())
            }
            if values[key] == nil { values[key] = Value(text: value, line: number) }
        }
    }

    /// Reads `Chart.yaml`; a UTF-8 byte-order mark is dropped, as Helm's loader does.
    package static func read(_ url: URL, displayPath: String) throws -> HelmChartFile {
        let text = try ManifestText.read(url, displayPath: displayPath)
        return HelmChartFile(text: text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
    }

    package subscript(key: String) -> Value? { values[key].flatMap { $0.text.isEmpty ? nil : $0 } }
}

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
        return ManifestVersion(text: Self.withoutLeadingV(value.text), foundIn: displayPath, line: value.line)
    }

    /// Helm's SemVer library takes `version: v0.3.3` as 0.3.3, and charts are published so
    /// (DataDog's extended-daemon-set, v0.1.0 to v0.3.3): the version is what follows the `v`,
    /// and `bump --write`, replacing that text in its line, keeps the `v`.
    package static func withoutLeadingV(_ text: String) -> String {
        guard text.count > 1, text.first == "v" || text.first == "V",
            text.dropFirst().first.map({ $0.isASCII && $0.isNumber }) == true
        else { return text }
        return String(text.dropFirst())
    }
}
