import Foundation

/// A section of the release notes and the commit types it collects.
struct NotesGroup: Sendable, Equatable {
    var title: String
    var types: [String]
    init(title: String, types: [String]) {
        self.title = title
        self.types = types
    }
}
