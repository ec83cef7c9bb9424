import Foundation
import RelctlBasics

public struct ProjectSettings: Sendable {
    /// The longest `[project] name`, in bytes: file names hold 255, and relctl writes files named
    /// after the project (archives with a tag and a target triple, `NAME-installer.ps1`, temporaries).
    package static let maximumNameLength = 128

    public var name: String
    public var tagFormat: TagFormat
    /// `description`, `license`, `homepage`, `maintainer`: what package managers show.
    package var metadata = ProjectMetadata()
    /// Globs relative to the project's folder whose changes count too (a workspace member's
    /// `include`) or do not (`exclude`).
    package var include: [String] = []
    package var exclude: [String] = []
    package init(name: String, tagFormat: TagFormat) {
        self.name = name
        self.tagFormat = tagFormat
    }
}

/// `[project]` `description`, `license`, `homepage` and `maintainer`: what package managers show
/// about the project. Each `[[package]]` table may override any of them.
package struct ProjectMetadata: Sendable, Equatable {
    /// First line the summary, the rest the long description.
    package var description: String?
    /// An SPDX license expression (`MIT`, `Apache-2.0 OR MIT`).
    package var license: String?
    package var homepage: String?
    /// `Name <email>`.
    package var maintainer: String?

    package init(description: String? = nil, license: String? = nil, homepage: String? = nil, maintainer: String? = nil)
    {
        self.description = description
        self.license = license
        self.homepage = homepage
        self.maintainer = maintainer
    }

    /// These values with `override`'s set ones in their place.
    package func overridden(by override: ProjectMetadata) -> ProjectMetadata {
        ProjectMetadata(
            description: override.description ?? description, license: override.license ?? license,
            homepage: override.homepage ?? homepage, maintainer: override.maintainer ?? maintainer)
    }
}

/// A manifest whose version must equal the tag's (`[[version]]`).
public struct VersionSource: Sendable, Equatable {
    /// Relative to the project root, as written.
    public var path: String
    /// A manifest reader id: `cargo`, `npm`, `python`, `swift`, `plain`, `regex`.
    public var kind: String
    /// For `regex` (and optionally `swift`): a pattern with a named group `version`.
    public var pattern: String?
    package var line: Int?

    package init(path: String, kind: String, pattern: String? = nil, line: Int? = nil) {
        self.path = path
        self.kind = kind
        self.pattern = pattern
        self.line = line
    }
}

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

/// `[workspace]`: a repository whose members release on their own, each with its own version,
/// tags (`[workspace] tag-format`, `{member}-v{version}` by default) and changes (the commits
/// touching its folder). Members are folders; `relctl plan` lists them.
package struct WorkspaceSettings: Sendable, Equatable {
    /// `[[workspace.group]]`: members released in lockstep, at one version.
    package struct Group: Sendable, Equatable {
        package var name: String
        package var members: [String]

        package init(name: String, members: [String]) {
            self.name = name
            self.members = members
        }
    }

    package static let defaultTagFormat = "{member}-v{version}"

    /// Folders or globs (`crates/*`), relative to the workspace root.
    package var members: [String]
    /// The members' tag format: `{member}` is the member's name.
    package var tagFormat: String = defaultTagFormat
    package var groups: [Group] = []
    /// `[workspace.tag-formats]`: members whose tags are spelled otherwise, by member name (a
    /// release-plz workspace's application tagged `v{version}` beside `{member}-v{version}` libraries).
    package var memberTagFormats: [String: String] = [:]

    /// The tag format of the member `name`: its entry in `tag-formats`, else the workspace's.
    package func tagFormat(for name: String, scheme: VersionScheme) throws -> TagFormat {
        let pattern = memberTagFormats[name] ?? tagFormat
        return try TagFormat(pattern.replacingOccurrences(of: "{member}", with: name), project: name, scheme: scheme)
    }

    package init(members: [String], tagFormat: String = defaultTagFormat, groups: [Group] = []) {
        self.members = members
        self.tagFormat = tagFormat
        self.groups = groups
    }
}
