import RelctlBasics

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
