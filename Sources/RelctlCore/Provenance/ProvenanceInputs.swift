import Foundation

/// What a release's provenance says about it, gathered by the release stage (from the identity
/// held in memory) or by `relctl sign` in CI (from `manifest.json` and git); the same inputs give
/// the same statement.
struct ProvenanceInputs: Sendable, Equatable {
    var project: String
    var tag: String
    var version: String
    var commit: String
    /// SOURCE_DATE_EPOCH or the commit time: the run's times, so the statement is reproducible.
    var sourceDateEpoch: Int
    /// Target triples of the archives, sorted, unique.
    var targets: [String]
    /// `relctl.toml` relative to the project root, and its SHA-256 (hex).
    var configPath: String
    var configSHA256: String
    /// The repository's URL (credentials removed), for the source's `git+URL@refs/tags/TAG`.
    var repositoryURL: String?
}
