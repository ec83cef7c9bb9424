import Foundation
import RelctlBasics

/// What `publish` did, for `--json` and the summary line.
public struct PublishReport: Codable, Sendable, Equatable {
    public enum Outcome: String, Codable, Sendable {
        /// Made public by this run.
        case published
        /// Left as a complete draft (`--draft`).
        case draft
        /// Already public with the same assets: nothing was changed.
        case alreadyPublished = "already-published"
        /// Already public, and this run added or replaced assets on it.
        case updated
        /// A dry run: nothing was written; `uploaded` lists what a real run would upload.
        case rehearsed = "dry-run"
    }

    public package(set) var publisher: String
    public package(set) var repository: String
    public package(set) var tag: String
    public package(set) var releaseID: Int
    public package(set) var url: String
    public package(set) var outcome: Outcome
    /// True when this run created the draft.
    public package(set) var created: Bool
    public package(set) var prerelease: Bool
    /// Whether this run asked for the release to be marked latest (nil: not decided by this run).
    public package(set) var latest: Bool?
    public package(set) var uploaded: [String]
    /// Assets already there with the same SHA256.
    public package(set) var unchanged: [String]
    /// Same-name assets with a different SHA256, replaced because of `--replace`.
    public package(set) var replaced: [String]
    /// Assets left unfinished by an earlier run, deleted and uploaded again.
    public package(set) var repaired: [String]

    public init(
        publisher: String, repository: String, tag: String, releaseID: Int, url: String, outcome: Outcome,
        created: Bool, prerelease: Bool,
        latest: Bool?, uploaded: [String], unchanged: [String], replaced: [String], repaired: [String]
    ) {
        self.publisher = publisher
        self.repository = repository
        self.tag = tag
        self.releaseID = releaseID
        self.url = url
        self.outcome = outcome
        self.created = created
        self.prerelease = prerelease
        self.latest = latest
        self.uploaded = uploaded
        self.unchanged = unchanged
        self.replaced = replaced
        self.repaired = repaired
    }

    /// One line for plans and logs.
    public var summary: String {
        switch outcome {
        case .rehearsed:
            let release = releaseID == 0 ? "no release for \(tag) yet" : "release \(releaseID) for \(tag)"
            return "\(release); \(uploaded.count) to upload, \(unchanged.count) already there"
        case .alreadyPublished: return "already published"
        default: return "\(outcome.rawValue), \(uploaded.count + replaced.count + repaired.count) uploaded"
        }
    }

    package enum CodingKeys: String, CodingKey {
        case publisher, repository, tag, url, outcome, created, prerelease, latest, uploaded, unchanged, replaced,
            repaired
        case releaseID = "release_id"
    }
}
