import Foundation
import RelctlBasics

/// A place releases are published to (GitHub now; GitLab or Gitea later). A publisher learns
/// what is already published from its API, never from local files, so running it again after
/// any failure finishes the job.
public protocol Publisher: Sendable {
    /// The registry id (`github`).
    var id: String { get }
    /// Everything that can be checked without a request (credentials, repository), so a bad
    /// setup fails with exit 2 before anything is sent.
    func preflight(_ request: PublishRequest, context: Context) throws
    func publish(_ request: PublishRequest, context: Context) async throws -> PublishReport
    /// A dry run: read-only requests proving the API answers with these credentials, and what a
    /// real run would find (the release, which assets it lacks, any differing asset as an error).
    func rehearse(_ request: PublishRequest, context: Context) async throws -> PublishReport
}
