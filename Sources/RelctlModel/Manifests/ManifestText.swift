import Foundation
import RelctlBasics

/// Shared helpers for readers.
package enum ManifestText {
    package static func read(_ url: URL, displayPath: String) throws -> String {
        guard let text = try TextFile.read(url, displayPath: displayPath) else {
            // Present but unopenable is not "missing": say what it is.
            let failure: SystemCallFailure
            do {
                _ = try ReadableFile(path: url.path)
                failure = SystemCallFailure(code: EIO)
            } catch {
                failure = error
            }
            if failure.isMissing { throw ManifestError.missing(path: displayPath) }
            throw ManifestError.invalid(
                path: displayPath, line: nil, reason: "cannot be read: \(failure); check its permissions")
        }
        return text
    }

    /// The 1-based line holding the character offset.
    package static func line(of index: String.Index, in text: String) -> Int {
        text[..<index].reduce(1) { $1.isLineBreak ? $0 + 1 : $0 }
    }

    /// The line of the first `version = "…"` assignment inside the `[header]` table of a TOML file.
    package static func tomlVersionLine(in text: String, table header: String) -> Int? {
        var inside = header.isEmpty
        for (index, raw) in text.fileLines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inside = line.hasPrefix("[\(header)]")
            } else if inside, line.hasPrefix("version"),
                line.dropFirst(7).trimmingCharacters(in: .whitespaces).hasPrefix("=")
            {
                return index + 1
            }
        }
        return nil
    }
}
