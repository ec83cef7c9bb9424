import Foundation

/// A titled group of entries (`Breaking changes`, `Features`, …).
struct NotesSection: Sendable, Equatable {
    var title: String
    var entries: [NotesEntry]

    init(title: String, entries: [NotesEntry]) {
        self.title = title
        self.entries = entries
    }
}
