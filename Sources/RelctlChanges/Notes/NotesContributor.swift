import Foundation
import RelctlBasics

/// A commit author, after `.mailmap`.
package struct NotesContributor: Sendable, Equatable, Codable {
    package var name: String
    package var email: String

    package init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}
