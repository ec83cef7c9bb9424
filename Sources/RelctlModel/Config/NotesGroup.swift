import Foundation
import RelctlBasics

/// A section of the release notes and the commit types it collects.
package struct NotesGroup: Sendable, Equatable {
    package var title: String
    package var types: [String]
    package init(title: String, types: [String]) {
        self.title = title
        self.types = types
    }
}
