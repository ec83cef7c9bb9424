import Foundation

/// Any file plus a `pattern` whose named group `version` captures the version.
public struct RegexManifestReader: ManifestReader {
    public var comparison: VersionComparison { .semver }
    public init() {}

    /// A problem with the pattern itself, or nil when it compiles and has a `version` group.
    public static func checkPattern(_ pattern: String) -> String? {
        do {
            _ = try NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines])
        } catch {
            return "`pattern` is not a valid regular expression: \(pattern)"
        }
        guard pattern.contains("(?<version>") || pattern.contains("(?P<version>") else {
            return "`pattern` needs a named group `version`, e.g. 'VERSION = \"(?<version>[^\"]+)\"'"
        }
        return nil
    }

    public func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        guard let pattern = source.pattern else {
            throw ManifestError.invalid(
                path: displayPath, line: nil, reason: "kind `regex` needs a `pattern` with a named group `version`")
        }
        return try Self.match(pattern, in: url, displayPath: displayPath)
    }

    static func match(_ rawPattern: String, in url: URL, displayPath: String) throws -> ManifestVersion {
        let text = try ManifestText.read(url, displayPath: displayPath)
        let pattern = rawPattern.replacingOccurrences(of: "(?P<version>", with: "(?<version>")
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else {
            throw ManifestError.invalid(path: displayPath, line: nil, reason: "invalid `pattern`: \(rawPattern)")
        }
        let range = NSRange(text.startIndex..., in: text)
        guard let found = regex.firstMatch(in: text, range: range),
            let versionRange = Range(found.range(withName: "version"), in: text)
        else {
            throw ManifestError.noVersion(path: displayPath, hint: "pattern `\(rawPattern)` matches nothing")
        }
        return ManifestVersion(
            text: String(text[versionRange]), foundIn: displayPath,
            line: ManifestText.line(of: versionRange.lowerBound, in: text))
    }
}
