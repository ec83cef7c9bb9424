import Foundation
import RelctlBasics

/// The version a manifest declares, as written, and where it came from.
public struct ManifestVersion: Sendable, Equatable {
    public var text: String
    /// The file the version was actually found in (a Cargo workspace root, for inherited versions).
    public var foundIn: String
    /// The 1-based line of the version text, for `bump --write` and messages.
    public var line: Int?

    public init(text: String, foundIn: String, line: Int? = nil) {
        self.text = text
        self.foundIn = foundIn
        self.line = line
    }
}
