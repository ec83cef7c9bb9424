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
