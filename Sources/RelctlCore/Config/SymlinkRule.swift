import Foundation

/// `[[archive.symlink]]`: a link created per binary (`{binary}` expands to each binary name),
/// or once when neither side names `{binary}`.
struct SymlinkRule: Sendable, Equatable {
    var path: Template
    var to: Template
    init(path: Template, to: Template) {
        self.path = path
        self.to = to
    }

    /// True when the rule makes one link per binary.
    var mentionsBinary: Bool { path.placeholders.contains("binary") || to.placeholders.contains("binary") }
}
