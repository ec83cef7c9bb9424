import Foundation

/// `relctl release-pr`'s flags.
package struct ReleaseRequestOptions: Sendable {
    /// `--forge`: github, gitlab or gitea; nil for the first forge `[publish]` names (else GitHub).
    package var forge: String?
    /// Read the forge and the remote, change nothing anywhere.
    package var dryRun = false
    /// Replace commits someone else pushed to the release branch.
    package var force = false

    package init() {}
}
