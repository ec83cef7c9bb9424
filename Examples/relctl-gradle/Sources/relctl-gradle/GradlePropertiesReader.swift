import Foundation
import RelctlBasics
import RelctlModel

/// The `version=` line of a Gradle project's `gradle.properties`.
struct GradlePropertiesReader: ManifestReader {
    var comparison: VersionComparison { .semver }

    func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8)
        else {
            throw GradleError(path: displayPath, message: "cannot be read as UTF-8 text")
        }
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == "version" {
                return ManifestVersion(text: parts[1], foundIn: displayPath, line: index + 1)
            }
        }
        throw GradleError(path: displayPath, message: "has no `version=` line; add one (version=1.2.3)")
    }
}

/// What the reader reports: the file and what to do, as every relctl error does (exit 2).
struct GradleError: RelctlError {
    var path: String
    var message: String

    var exitCode: RelctlExitCode { .badInput }
    var diagnostics: [Diagnostic] { [Diagnostic(file: path, message)] }
}
