import Foundation
import RelctlBasics

/// A titled group of entries (`Breaking changes`, `Features`, …).
package struct NotesSection: Sendable, Equatable {
    package var title: String
    package var entries: [NotesEntry]

    package init(title: String, entries: [NotesEntry]) {
        self.title = title
        self.entries = entries
    }
}
