import Foundation
import RelctlBasics
@_exported import RelctlTOML

/// A parsed TOML file: its tree, and where each key was written so errors can name the line.
package struct TOMLDocument: Sendable {
    package let path: String
    package let text: String
    package let root: [String: TOMLNode]
    package let locator: SourceLocator

    /// Parses `text`; a syntax error is `badInput` naming `path` and the line.
    package init(text: String, path: String) throws {
        self.path = path
        self.text = text
        do {
            root = try TOMLParser.parse(text)
        } catch {
            throw ConfigError.syntax(path: path, line: error.line > 0 ? error.line : nil, message: error.message)
        }
        locator = SourceLocator(text: text)
    }

    /// Reads and parses a project file (opened under the read rule); a missing file is `badInput`
    /// naming it.
    /// Inside a `TOMLReadCache` scope, a file already parsed there is not read again.
    package init(file: ProjectFile) throws {
        let cache = TOMLReadCache.current
        if let cached = cache?.document(at: file) {
            self = cached
            return
        }
        let kind = file.kind
        if kind == .directory { throw ConfigError.isDirectory(path: file.shown) }
        guard let text = try file.text() else {
            throw ConfigError.unreadable(path: file.shown, exists: kind != nil)
        }
        try self.init(text: text, path: file.shown)
        cache?.keep(self, for: file)
    }
}

/// Finds the line on which a key was written, by scanning the text for table headers and
/// `key =` lines. TOMLKit does not report node positions, and a key's line is what a user
/// needs to fix a typo. Paths look like `project.tag-format` or `target[1].triple`.
package struct SourceLocator: Sendable {
    private var lines: [String: Int] = [:]

    package init(text: String) {
        var header: String = ""
        var arrayCounts: [String: Int] = [:]
        for (index, rawLine) in text.fileLines.enumerated() {
            let lineNumber = index + 1
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[[") {
                let name = Self.headerName(line.dropFirst(2))
                let count = arrayCounts[name, default: -1] + 1
                arrayCounts[name] = count
                // Nested arrays of tables (`[[archive.symlink]]`) index their own last segment.
                header = "\(name)[\(count)]"
                lines[header] = lineNumber
                if lines[name] == nil { lines[name] = lineNumber }
            } else if line.hasPrefix("[") {
                header = Self.headerName(line.dropFirst(1))
                lines[header] = lineNumber
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
                guard !key.isEmpty, !key.contains(" ") else { continue }
                let full = header.isEmpty ? key : "\(header).\(key)"
                if lines[full] == nil { lines[full] = lineNumber }
            }
        }
    }

    private static func headerName(_ rest: Substring) -> String {
        let name = rest.prefix(while: { $0 != "]" })
        return name.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\"", with: "")
        }.joined(separator: ".")
    }

    /// The line of `path`, or of the closest enclosing table that was written out.
    package func line(of path: String) -> Int? {
        var candidate = path
        while true {
            if let line = lines[candidate] { return line }
            // Strip the innermost step: `archive.trees[0]` falls back to `archive.trees` (the line
            // of an inline array item), not to `archive`.
            guard let cut = [candidate.lastIndex(of: "."), candidate.lastIndex(of: "[")].compactMap({ $0 }).max() else {
                return nil
            }
            candidate = String(candidate[..<cut])
        }
    }
}
