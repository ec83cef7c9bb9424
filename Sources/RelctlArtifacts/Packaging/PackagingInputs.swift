import Foundation
import RelctlBasics
import RelctlModel

/// What every archive of one release shares: a view of its `ReleaseIdentity`, resolved once (by
/// `relctl package` and `linux-package` with `.packaging`, by the release's preflight).
public struct PackagingInputs: Sendable {
    package var tag: String
    package var version: String
    /// The commit the archives are built from ("" outside a repository).
    package var commit: String
    /// The one timestamp every entry gets (SOURCE_DATE_EPOCH or the commit's time).
    package var mtime: Int

    package init(tag: String, version: String, commit: String, mtime: Int) {
        self.tag = tag
        self.version = version
        self.commit = commit
        self.mtime = mtime
    }
}

extension ReleaseIdentity {
    /// What the packager needs, without asking git again.
    package var packagingInputs: PackagingInputs {
        PackagingInputs(tag: tag, version: version.description, commit: commit, mtime: sourceDateEpoch)
    }
}
