import Foundation

/// What a release is about, resolved once before any stage runs and handed down unchanged:
/// nothing after the preflight asks git for the commit, the time or the targets again.
struct ReleaseIdentity: Sendable {
    var project: String
    var tag: String
    var version: SemanticVersion
    /// The commit being released (HEAD when the release started).
    var commit: String
    /// Its committer time, seconds since the epoch.
    var commitTime: Int
    /// SOURCE_DATE_EPOCH, when the environment sets it.
    var environmentEpoch: Int?
    var branch: String?
    /// The selected targets (`--target`, `--host`); empty for a tag-only release.
    var targets: [Target]

    init(
        project: String, tag: String, version: SemanticVersion, commit: String, commitTime: Int,
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
    /// the commit time. Never the wall clock.
    var sourceDateEpoch: Int { environmentEpoch ?? commitTime }

    /// The same release of another commit: a `before` hook committed, and the tag goes on what is there.
    func moved(to commit: String, time: Int) -> ReleaseIdentity {
        var moved = self
        moved.commit = commit
        moved.commitTime = time
        return moved
    }

    /// True when the project configures no `[[target]]`: check, notes, tag and push only.
    var isTagOnly: Bool { targets.isEmpty }

    /// The placeholder values every template may use for this release.
    var placeholders: [String: String] {
        ["project": project, "version": version.description, "tag": tag]
    }

    /// What the packager needs, without asking git again.
    var packagingInputs: PackagingInputs {
        PackagingInputs(tag: tag, version: version.description, commit: commit, mtime: sourceDateEpoch)
    }

    /// What the build commands see, likewise.
    var buildInputs: BuildInputs {
        BuildInputs(tag: tag, version: version.description, commit: commit, sourceDateEpoch: String(sourceDateEpoch))
    }
}
