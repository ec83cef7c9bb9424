import Foundation
import RelctlBasics

/// What a release's provenance says about it, gathered by the release stage (from the identity
/// held in memory) or by `relctl sign` in CI (from `manifest.json` and git); the same inputs give
/// the same statement.
package struct ProvenanceInputs: Sendable, Equatable {
    package var project: String
    package var tag: String
    package var version: String
    package var commit: String
    /// SOURCE_DATE_EPOCH or the commit time: the run's times, so the statement is reproducible.
    package var sourceDateEpoch: Int
    /// Target triples of the archives, sorted, unique.
    package var targets: [String]
    /// `relctl.toml` relative to the project root, and its SHA-256 (hex).
    package var configPath: String
    package var configSHA256: String
    /// The repository's URL (credentials removed), for the source's `git+URL@refs/tags/TAG`.
    package var repositoryURL: String?
}
