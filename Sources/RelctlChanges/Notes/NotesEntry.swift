import Foundation
import RelctlBasics

/// One line of the notes: a commit, classified.
public struct NotesEntry: Sendable, Equatable {
    /// The commit's full name, held inline (issue 31: at 100,000 entries, 40-digit strings
    /// were 7.9 MB of heap).
    package var commitName: CommitName
    package var commit: String {
        get { commitName.description }
        set { commitName = CommitName(newValue) }
    }
    /// The conventional type (`feat`, `fix`, …) or `other`.
    package var type: String
    package var scope: String?
    /// The description as written (unescaped).
    package var summary: String
    package var breaking: Bool
    /// The `BREAKING CHANGE:` footer text: what users must do.
    package var migrationNote: String?
    package var authorName: String
    package var authorEmail: String
    /// A conventional type no group names (`deps:`, `doc:`), listed under Other changes: the
    /// entry shows it, since the section title says nothing about what kind of change it is.
    package var showsType = false

    package var shortHash: String { String(commit.prefix(7)) }

    package init(
        commit: String, type: String, scope: String?, summary: String, breaking: Bool, migrationNote: String?,
        authorName: String, authorEmail: String
    ) {
        self.commitName = CommitName(commit)
        self.type = type
        self.scope = scope
        self.summary = summary
        self.breaking = breaking
        self.migrationNote = migrationNote
        self.authorName = authorName
        self.authorEmail = authorEmail
    }
}

/// A commit author, after `.mailmap`.
package struct NotesContributor: Sendable, Equatable, Codable {
    package var name: String
    package var email: String

    package init(name: String, email: String) {
        self.name = name
        self.email = email
    }
}

/// A titled group of entries (`Breaking changes`, `Features`, …).
package struct NotesSection: Sendable, Equatable {
    package var title: String
    package var entries: [NotesEntry]

    package init(title: String, entries: [NotesEntry]) {
        self.title = title
        self.entries = entries
    }
}
