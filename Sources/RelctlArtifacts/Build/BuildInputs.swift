import Foundation
import RelctlBasics
import RelctlModel

/// What every build of one release shares: the tag, its version, the commit and the reproducible
/// clock; a view of the release's `ReleaseIdentity` (`relctl build` resolves it with `.build`).
package struct BuildInputs: Sendable, Equatable {
    package var tag: String
    package var version: String
    /// The full hash of HEAD, or empty outside a git repository.
    package var commit: String
    /// `SOURCE_DATE_EPOCH` from the environment when set, else HEAD's committer time; nil without either.
    package var sourceDateEpoch: String?

    package init(tag: String, version: String, commit: String, sourceDateEpoch: String?) {
        self.tag = tag
        self.version = version
        self.commit = commit
        self.sourceDateEpoch = sourceDateEpoch
    }
}

extension ReleaseIdentity {
    /// What the build commands see, without asking git again.
    package var buildInputs: BuildInputs {
        BuildInputs(tag: tag, version: version.description, commit: commit, sourceDateEpoch: clock.map(String.init))
    }
}
