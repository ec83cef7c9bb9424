import Foundation

/// The version a manifest declares, as written, and where it came from.
struct ManifestVersion: Sendable, Equatable {
    var text: String
    /// The file the version was actually found in (a Cargo workspace root, for inherited versions).
    var foundIn: String
    /// The 1-based line of the version text, for `bump --write` and messages.
    var line: Int?

    init(text: String, foundIn: String, line: Int? = nil) {
        self.text = text
        self.foundIn = foundIn
        self.line = line
    }
}
