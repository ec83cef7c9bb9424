import Foundation
import RelctlBasics

/// A file or tree copied into the archive: `from` in the project, `to` inside the archive folder.
package struct PathMapping: Sendable, Equatable {
    package var from: Template
    package var to: Template
    package init(from: Template, to: Template) {
        self.from = from
        self.to = to
    }
}
