import Foundation
import RelctlBasics

/// A chart's `.helmignore`, with Helm's rules (helm's `pkg/ignore`): blank lines and `#` comments
/// skipped, `**` refused; a pattern without `/` matches the base name, one with `/` the whole path
/// relative to the chart, a leading `/` anchors it there; a trailing `/` matches folders only; `!`
/// negates. Rules are read in order and the first that decides wins. `templates/.?*` (dot files in
/// templates/) is always added last, as Helm does.
package struct HelmIgnore: Sendable {
    package struct Pattern: Sendable {
        package var glob: String
        package var negate: Bool
        package var folderOnly: Bool
        /// True when the glob is matched against the base name only.
        package var baseName: Bool
    }

    package var patterns: [Pattern] = []

    package static let fileName = ".helmignore"

    package init(text: String, displayPath: String) throws {
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rule = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if rule.isEmpty || rule.hasPrefix("#") { continue }
            if rule.contains("**") {
                throw ChannelError.chartInvalid(
                    path: displayPath, line: index + 1,
                    reason: "`**` is not supported in .helmignore (Helm refuses it too)")
            }
            var pattern = Pattern(glob: "", negate: false, folderOnly: false, baseName: false)
            if rule.hasPrefix("!") {
                pattern.negate = true
                rule.removeFirst()
            }
            if rule.hasSuffix("/") {
                pattern.folderOnly = true
                rule.removeLast()
            }
            if rule.hasPrefix("/") {
                rule.removeFirst()
            } else if !rule.contains("/") {
                pattern.baseName = true
            }
            pattern.glob = rule
            patterns.append(pattern)
        }
        patterns.append(Pattern(glob: "templates/.?*", negate: false, folderOnly: false, baseName: false))
    }

    /// Whether `path` (relative to the chart, `/`-separated) is left out.
    package func ignores(_ path: String, isFolder: Bool) -> Bool {
        guard !path.isEmpty, path != ".", path != "./" else { return false }
        for pattern in patterns {
            let subject = pattern.baseName ? String(path.split(separator: "/").last ?? "") : path
            // Go's filepath.Match: `*` and `?` never cross a `/`, a leading dot is matched like any byte.
            let matched = fnmatch(pattern.glob, subject, FNM_PATHNAME) == 0
            if pattern.negate {
                if pattern.folderOnly && !isFolder { return true }
                if !matched { return true }
                continue
            }
            if pattern.folderOnly && !isFolder { continue }
            if matched { return true }
        }
        return false
    }
}
