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
