import Foundation

/// A commit author, after `.mailmap`.
public struct NotesContributor: Sendable, Equatable, Codable {
    public var name: String
    public var email: String

    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}
