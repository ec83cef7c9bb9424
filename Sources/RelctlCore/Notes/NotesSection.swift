import Foundation

/// A titled group of entries (`Breaking changes`, `Features`, …).
public struct NotesSection: Sendable, Equatable {
    public var title: String
    public var entries: [NotesEntry]

    public init(title: String, entries: [NotesEntry]) {
        self.title = title
        self.entries = entries
    }
}
