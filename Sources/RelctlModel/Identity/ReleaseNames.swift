import RelctlBasics

/// The names a release gives every template and child process: `{project}`, `{version}` and
/// `{tag}`, and `RELCTL_PROJECT`, `RELCTL_VERSION` and `RELCTL_TAG`. Built here only, so a new
/// name reaches archive names, binary folders, image tags, hooks, builds and plugins at once.
package struct ReleaseNames: Sendable, Equatable {
    package var project: String
    /// Without the tag's prefix (`1.2.0` for `v1.2.0`).
    package var version: String
    package var tag: String

    package init(project: String, version: String, tag: String) {
        self.project = project
        self.version = version
        self.tag = tag
    }

    /// The release's placeholders, with a target's own (`{target}`, `{os}`, `{arch}`…) when given.
    package func placeholders(for target: Target? = nil) -> [String: String] {
        var values = target?.placeholders ?? [:]
        values["project"] = project
        values["version"] = version
        values["tag"] = tag
        return values
    }

    /// Sets the release's `RELCTL_*` variables in a child's environment.
    package func export(into environment: inout [String: String]) {
        environment["RELCTL_PROJECT"] = project
        environment["RELCTL_VERSION"] = version
        environment["RELCTL_TAG"] = tag
    }
}
