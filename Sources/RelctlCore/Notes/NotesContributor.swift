import Foundation

/// A commit author, after `.mailmap`.
struct NotesContributor: Sendable, Equatable, Codable {
    var name: String
    var email: String

    init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}
