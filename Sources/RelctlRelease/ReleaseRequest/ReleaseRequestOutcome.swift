import Foundation
import RelctlBasics

/// What one `release-pr` run did (or, with `--dry-run`, would do), as `--json` prints it.
package struct ReleaseRequestOutcome: Sendable, Encodable {
    package enum Action: String, Sendable, Encodable {
        case opened, updated, unchanged, closed, nothing
    }

    package var action: Action
    package var dryRun: Bool
    package var forge: String
    package var branch: String
    package var base: String
    package var tags: [String]
    @NullEncoded package var number: Int?
    @NullEncoded package var url: String?
    /// The release branch's commit after the run (nil: no branch).
    @NullEncoded package var commit: String?
}
