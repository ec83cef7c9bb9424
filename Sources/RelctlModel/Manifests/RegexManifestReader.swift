import Foundation
import RelctlBasics

/// Any file plus a `pattern` whose named group `version` captures the version.
package struct RegexManifestReader: ManifestReader {
    package var comparison: VersionComparison { .semver }
    package init() {}

    /// A problem with the pattern itself, or nil when it compiles and has a `version` group.
    package static func checkPattern(_ pattern: String) -> String? {
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

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        guard let pattern = source.pattern else {
            throw ManifestError.invalid(
                path: displayPath, line: nil, reason: "kind `regex` needs a `pattern` with a named group `version`")
        }
        return try Self.match(pattern, in: url, displayPath: displayPath)
    }

    /// The most a file searched with a `pattern` may hold: a version file or a source file is far
    /// smaller, and a pattern's work grows with the text it runs over.
    package static let sizeLimit = 1 << 20
    /// How long one pattern may run over one file. A pattern that backtracks catastrophically
    /// (`(a+)+b`) would otherwise run for hours; a sane one takes milliseconds on `sizeLimit` bytes.
    package static let timeLimit: Duration = .seconds(3)

    package static func match(_ rawPattern: String, in url: URL, displayPath: String) throws -> ManifestVersion {
        if let info = FileSystem.statusIfPresent(atPath: url.path), info.isRegularFile, info.size > sizeLimit {
            throw ManifestError.invalid(
                path: displayPath, line: nil,
                reason:
                    "is \(ByteCount.format(info.size)), more than relctl searches with a `pattern` (\(ByteCount.format(Int64(sizeLimit)))); point [[version]] at the file that holds the version"
            )
        }
        let text = try ManifestText.read(url, displayPath: displayPath)
        let pattern = rawPattern.replacingOccurrences(of: "(?P<version>", with: "(?<version>")
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else {
            throw ManifestError.invalid(path: displayPath, line: nil, reason: "invalid `pattern`: \(rawPattern)")
        }
        let range = NSRange(text.startIndex..., in: text)
        // `.reportProgress` calls the block while ICU works, so a runaway match can be stopped.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeLimit)
        var first: NSTextCheckingResult?
        var timedOut = false
        var calls = 0
        regex.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            calls += 1
            if let result {
                first = result
                stop.pointee = true
            } else if calls % 1024 == 0, clock.now > deadline {
                // Called at every start position and every few thousand steps: the clock is read
                // now and then only.
                timedOut = true
                stop.pointee = true
            }
        }
        if timedOut {
            throw ManifestError.invalid(
                path: displayPath, line: nil,
                reason:
                    "pattern `\(rawPattern)` ran for more than \(timeLimit.components.seconds) s without finishing, so relctl stopped it; nested repetition such as `(a+)+` or `(.*)*` backtracks without end: make it specific, e.g. `VERSION = \"(?<version>[^\"]+)\"`"
            )
        }
        guard let found = first, let versionRange = Range(found.range(withName: "version"), in: text) else {
            throw ManifestError.noVersion(path: displayPath, hint: "pattern `\(rawPattern)` matches nothing")
        }
        return ManifestVersion(
            text: String(text[versionRange]), foundIn: displayPath,
            line: ManifestText.line(of: versionRange.lowerBound, in: text))
    }
}
