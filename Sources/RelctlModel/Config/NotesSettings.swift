import Foundation
import RelctlBasics

package struct NotesSettings: Sendable {
    /// A Mustache template rendered over the notes data instead of the built-in Markdown.
    package var template: String?
    package var groups: [NotesGroup] = NotesSettings.defaultGroups
    /// Non-conventional commits go to "Other changes" (true) or are dropped (false).
    package var includeOther: Bool = true
    package var includeMerges: Bool = false
    /// For a final release, earlier prereleases are skipped when choosing the previous tag.
    package var skipPrereleases: Bool = true

    package static let defaultGroups: [NotesGroup] = [
        NotesGroup(title: "Features", types: ["feat"]),
        NotesGroup(title: "Bug fixes", types: ["fix"]),
        NotesGroup(title: "Performance", types: ["perf"]),
        NotesGroup(title: "Documentation", types: ["docs"]),
        NotesGroup(title: "Refactoring", types: ["refactor"]),
        // A revert that cancels nothing in the range undoes something users already had.
        NotesGroup(title: "Reverts", types: ["revert"]),
    ]
    package init() {}
}

/// A section of the release notes and the commit types it collects.
package struct NotesGroup: Sendable, Equatable {
    package var title: String
    package var types: [String]
    package init(title: String, types: [String]) {
        self.title = title
        self.types = types
    }
}
