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

    /// Reads and parses a file; a missing file is `badInput` naming it.
    package init(contentsOf url: URL, displayPath: String? = nil) throws {
        let shown = displayPath ?? url.path
        let kind = FileSystem.kind(of: url)
        if kind == .directory { throw ConfigError.isDirectory(path: shown) }
        guard let text = try TextFile.read(url, displayPath: shown) else {
            throw ConfigError.unreadable(path: shown, exists: kind != nil)
        }
        try self.init(text: text, path: shown)
    }
}
