import Foundation
import RelctlBasics

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

    /// The tag format of the member `name`.
    package func tagFormat(for name: String, scheme: VersionScheme) throws -> TagFormat {
        try TagFormat(tagFormat.replacingOccurrences(of: "{member}", with: name), project: name, scheme: scheme)
    }

    package init(members: [String], tagFormat: String = defaultTagFormat, groups: [Group] = []) {
        self.members = members
        self.tagFormat = tagFormat
        self.groups = groups
    }
}
