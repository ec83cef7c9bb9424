import Foundation
import RelctlBasics

/// What a release is about, resolved once (`ReleaseIdentity.resolve`, or the release preflight)
/// and handed down unchanged: nothing after it reads the tag, or asks git for the commit, the
/// time or the targets, again.
package struct ReleaseIdentity: Sendable {
    package var project: String
    package var tag: String
    package var version: SemanticVersion
    /// The commit being released (HEAD when the release started); empty when there is none
    /// (`build` outside a repository, `package` with SOURCE_DATE_EPOCH and no git).
    package var commit: String
    /// Its committer time, seconds since the epoch; nil when it was not needed (SOURCE_DATE_EPOCH
    /// set) or there is no commit.
    package var commitTime: Int?
    /// SOURCE_DATE_EPOCH, when the environment sets it.
    package var environmentEpoch: Int?
    package var branch: String?
    /// The selected targets (`--target`, `--host`); empty for a tag-only release.
    package var targets: [Target]

    package init(
        project: String, tag: String, version: SemanticVersion, commit: String, commitTime: Int?,
        environmentEpoch: Int?, branch: String?, targets: [Target]
    ) {
        self.project = project
        self.tag = tag
        self.version = version
        self.commit = commit
        self.commitTime = commitTime
        self.environmentEpoch = environmentEpoch
        self.branch = branch
        self.targets = targets
    }

    /// The clock written into archives and handed to builds: SOURCE_DATE_EPOCH when set, else
    /// the commit time. Never the wall clock. Nil only for a `build` with neither.
    package var clock: Int? { environmentEpoch ?? commitTime }

    /// The clock of a resolution that required one (every release, `package`, `image`, the
    /// channels: `Resolution.Clock.required`); `build`, which may have none, reads `clock`.
    package var sourceDateEpoch: Int { clock ?? 0 }

    /// The same release of another commit: a `before` hook committed, and the tag goes on what is there.
    package func moved(to commit: String, time: Int) -> ReleaseIdentity {
        var moved = self
        moved.commit = commit
        moved.commitTime = time
        return moved
    }

    /// True when the project configures no `[[target]]`: check, notes, tag and push only.
    package var isTagOnly: Bool { targets.isEmpty }

    /// The placeholder and environment names every template and child process may use.
    package var names: ReleaseNames { ReleaseNames(project: project, version: version.description, tag: tag) }

    /// The placeholder values every template may use for this release.
    package var placeholders: [String: String] { names.placeholders() }
}

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
