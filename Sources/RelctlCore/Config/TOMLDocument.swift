import Foundation
@_exported import RelctlTOML

/// A parsed TOML file: its tree, and where each key was written so errors can name the line.
public struct TOMLDocument: Sendable {
    public let path: String
    public let text: String
    public let root: [String: TOMLNode]
    public let locator: SourceLocator

    /// Parses `text`; a syntax error is `badInput` naming `path` and the line.
    public init(text: String, path: String) throws {
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
    public init(contentsOf url: URL, displayPath: String? = nil) throws {
        let shown = displayPath ?? url.path
        let kind = FileSystem.kind(of: url)
        if kind == .directory { throw ConfigError.isDirectory(path: shown) }
        guard let text = try TextFile.read(url, displayPath: shown) else {
            throw ConfigError.unreadable(path: shown, exists: kind != nil)
        }
        try self.init(text: text, path: shown)
    }
}
