import Foundation
import RelctlBasics

/// A manifest whose version must equal the tag's (`[[version]]`).
public struct VersionSource: Sendable, Equatable {
    /// Relative to the project root, as written.
    public var path: String
    /// A manifest reader id: `cargo`, `npm`, `python`, `swift`, `plain`, `regex`.
    public var kind: String
    /// For `regex` (and optionally `swift`): a pattern with a named group `version`.
    public var pattern: String?
    package var line: Int?

    package init(path: String, kind: String, pattern: String? = nil, line: Int? = nil) {
        self.path = path
        self.kind = kind
        self.pattern = pattern
        self.line = line
    }
}
