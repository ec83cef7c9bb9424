import Foundation
import RelctlBasics

/// `[[archive.symlink]]`: a link created per binary (`{binary}` expands to each binary name),
/// or once when neither side names `{binary}`.
package struct SymlinkRule: Sendable, Equatable {
    package var path: Template
    package var to: Template
    package init(path: Template, to: Template) {
        self.path = path
        self.to = to
    }

    /// True when the rule makes one link per binary.
    package var mentionsBinary: Bool { path.placeholders.contains("binary") || to.placeholders.contains("binary") }
}
