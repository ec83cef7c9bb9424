import Foundation

/// One line of the notes: a commit, classified.
public struct NotesEntry: Sendable, Equatable {
    public var commit: String
    /// The conventional type (`feat`, `fix`, …) or `other`.
    public var type: String
    public var scope: String?
    /// The description as written (unescaped).
    public var summary: String
    public var breaking: Bool
    /// The `BREAKING CHANGE:` footer text: what users must do.
    public var migrationNote: String?
    public var authorName: String
    public var authorEmail: String

    public var shortHash: String { String(commit.prefix(7)) }

    public init(
        commit: String, type: String, scope: String?, summary: String, breaking: Bool, migrationNote: String?,
        authorName: String, authorEmail: String
    ) {
        self.commit = commit
        self.type = type
        self.scope = scope
        self.summary = summary
        self.breaking = breaking
        self.migrationNote = migrationNote
        self.authorName = authorName
        self.authorEmail = authorEmail
    }
}
