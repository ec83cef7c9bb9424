import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Release notes for one range of history, ready to render as Markdown, JSON or a user template.
public struct ReleaseNotes: Sendable {
    package static let breakingTitle = "Breaking changes"
    package static let otherTitle = "Other changes"

    /// The release's tag; nil for unreleased changes.
    package var tag: String?
    package var version: SemanticVersion?
    /// The tag (or `--from` ref) the range starts after; nil when it covers the whole history.
    public var previous: String?
    /// `YYYY-MM-DD` of the target commit (UTC), never the wall clock.
    package var date: String
    package var targetCommit: String
    /// Breaking changes first, then the configured groups in order, then other changes; empty sections omitted.
    package var sections: [NotesSection]
    package var contributors: [NotesContributor]
    package var links: RepositoryLinks?
    /// `dist/manifest.json`, when present: drives the Install section.
    package var manifest: ReleaseManifest?
    /// Installers and signatures found next to the manifest, for the Install section.
    package var verification: InstallVerification?
    /// Rendered with the user's `[notes] template` instead of the built-in Markdown, when set.
    package var customMarkdown: String?
    /// Workspace members this release depends on that moved with it (`core 1.3.0`): a member's
    /// changelog says which dependency a `dependency` release is for.
    package var dependencies: [String] = []
    /// The project's name: a changelog's release headings may carry it (`pytest 9.1.1`).
    package var projectName: String?

    /// What the range ends at, in links: the tag when there is one.
    package var targetName: String { tag ?? String(targetCommit.prefix(12)) }

    package var compareURL: String? {
        guard let links, let previous else { return nil }
        return links.compareURL(from: previous, to: targetName)
    }

    /// Every commit shown, across sections.
    public var entries: [NotesEntry] { sections.flatMap(\.entries) }
    /// `entries.count` without building that list (100,000 commits: 19 MB; issue 31).
    public var entryCount: Int { sections.reduce(0) { $0 + $1.entries.count } }

    /// The Markdown section: the user's template output when configured, else the built-in layout.
    public var markdown: String { customMarkdown ?? NotesMarkdown.render(self) }

    /// The contract's machine output (`relctl notes --json`).
    public var json: String {
        get throws { try JSONOutput.encode(JSONForm(self)) }
    }

    /// Every contract key is present, `null` when empty, so consumers need not test for absence.
    package struct JSONForm: Encodable {
        package struct Entry: Encodable {
            package var commit: String
            package var type: String
            @NullEncoded package var scope: String?
            package var summary: String
            package var breaking: Bool
        }
        package struct Section: Encodable {
            package var title: String
            package var entries: [Entry]
        }
        @NullEncoded package var tag: String?
        @NullEncoded package var previous: String?
        package var date: String
        package var sections: [Section]
        package var contributors: [NotesContributor]

        package init(_ notes: ReleaseNotes) {
            tag = notes.tag
            previous = notes.previous
            date = notes.date
            sections = notes.sections.map { section in
                Section(
                    title: section.title,
                    entries: section.entries.map {
                        Entry(
                            commit: $0.commit, type: $0.type, scope: $0.scope, summary: $0.summary,
                            breaking: $0.breaking)
                    })
            }
            contributors = notes.contributors
        }
    }
}
