import Foundation
import RelctlBasics

/// `package.json`: the top-level `version` string.
package struct NpmManifestReader: ManifestReader {
    package var comparison: VersionComparison { .semver }
    package init() {}

    package func readVersion(at url: URL, source: VersionSource, displayPath: String) throws -> ManifestVersion {
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
    package static func topLevelVersionLine(in text: String) -> Int? {
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
