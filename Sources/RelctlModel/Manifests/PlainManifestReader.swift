import Foundation
import RelctlBasics

/// A `VERSION` file: its whole content, trimmed.
package struct PlainManifestReader: ManifestReader {
    package var comparison: VersionComparison { .semver }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let content = try ManifestText.read(url, displayPath: displayPath)
        guard let start = content.firstIndex(where: { !$0.isWhitespace }) else {
            throw ManifestError.noVersion(path: displayPath, hint: "the file is empty")
        }
        let text = content[start...].trimmingCharacters(in: .whitespacesAndNewlines)
        let line = ManifestText.line(of: start, in: content)
        if text.contains(where: \.isNewline) {
            throw ManifestError.invalid(
                path: displayPath, line: line + 1,
                reason:
                    "a `plain` version file must hold only the version; use kind `regex` with a `pattern` for anything else"
            )
        }
        return ManifestVersion(text: text, foundIn: displayPath, line: line)
    }
}
