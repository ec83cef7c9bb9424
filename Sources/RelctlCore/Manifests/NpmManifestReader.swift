import Foundation

/// `package.json`: the top-level `version` string.
public struct NpmManifestReader: ManifestReader {
    public var comparison: VersionComparison { .semver }
    public init() {}

    public func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let text = try ManifestText.read(url, displayPath: displayPath)
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
            throw ManifestError.invalid(
                path: displayPath, line: nil, reason: "not valid JSON: \((error as NSError).localizedDescription)")
        }
        guard let dictionary = object as? [String: Any], let version = dictionary["version"] as? String else {
            throw ManifestError.noVersion(path: displayPath, hint: "expected a top-level \"version\" string")
        }
        return ManifestVersion(text: version, foundIn: displayPath, line: Self.topLevelVersionLine(in: text))
    }

    /// The line of the top-level `"version"` key: a nested one (`"engines": {"version": …}`)
    /// must not be the line `bump --write` edits. A small scan tracks strings and nesting depth.
    static func topLevelVersionLine(in text: String) -> Int? {
        let bytes = Array(text.utf8)
        var depth = 0, line = 1, index = 0
        var inString = false, stringStart = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") { line += 1 }
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    let key = bytes[(stringStart + 1)..<index]
                    if depth == 1, key.elementsEqual("version".utf8) {
                        var next = index + 1
                        while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                        if next < bytes.count, bytes[next] == UInt8(ascii: ":") { return line }
                    }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true; stringStart = index
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
            }
            index += 1
        }
        return nil
    }
}

/// `pyproject.toml`: PEP 621 `[project] version` or Poetry `[tool.poetry] version`, compared by PEP 440.
public struct PythonManifestReader: ManifestReader {
    public var comparison: VersionComparison { .pep440 }
    public init() {}

    public func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        let document = try TOMLDocument(contentsOf: url, displayPath: displayPath)
        if let project = document.root["project"]?.table {
            if let version = project["version"]?.string {
                return ManifestVersion(
                    text: version, foundIn: displayPath,
                    line: ManifestText.tomlVersionLine(in: document.text, table: "project"))
            }
            if project["dynamic"]?.array?.contains(.string("version")) == true {
                throw ManifestError.dynamicVersion(path: displayPath)
            }
        }
        if let version = document.root["tool"]?.table?["poetry"]?.table?["version"]?.string {
            return ManifestVersion(
                text: version, foundIn: displayPath,
                line: ManifestText.tomlVersionLine(in: document.text, table: "tool.poetry"))
        }
        throw ManifestError.noVersion(
            path: displayPath, hint: "expected `version` under [project] (PEP 621) or [tool.poetry]")
    }
}

/// A `VERSION` file: its whole content, trimmed.
public struct PlainManifestReader: ManifestReader {
    public var comparison: VersionComparison { .semver }
    public init() {}

    public func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
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

/// A Swift source file (Swift packages have no version field in Package.swift): the first
/// `let version = "…"` (or `var`, or with `: String`), or a custom `pattern`.
public struct SwiftManifestReader: ManifestReader {
    public static let defaultPattern = #"(?:let|var)\s+version\s*(?::\s*String\s*)?=\s*"(?<version>[^"]+)""#
    public var comparison: VersionComparison { .semver }
    public init() {}

    public func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
        do {
            return try RegexManifestReader.match(
                source.pattern ?? Self.defaultPattern, in: url, displayPath: displayPath)
        } catch ManifestError.noVersion where source.pattern == nil {
            throw ManifestError.noVersion(
                path: displayPath, hint: "expected a declaration like `let version = \"1.2.3\"`, or give a `pattern`")
        }
    }
}
