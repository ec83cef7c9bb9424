import Foundation
import RelctlBasics

/// The pull-request calls `release-pr` makes, on each forge in its own API: the open requests
/// from one head branch (every page), create, update the title and body, close.
package protocol ReleaseRequestAPI: Sendable {
    /// "pull request", or "merge request" on GitLab.
    var noun: String { get }
    /// The repository or project, as messages name it.
    var place: String { get }
    /// Every open request whose head branch is named `head`, forks' included, each with the
    /// repository it comes from: `relctlRequests(head:)` keeps the ones that are relctl's.
    func openRequests(head: String) async throws -> [ForgeRequest]
    func create(head: String, base: String, title: String, body: String) async throws -> ForgeRequest
    func update(_ number: Int, title: String, body: String) async throws -> ForgeRequest
    func close(_ number: Int) async throws
}

extension ReleaseRequestAPI {
    /// Creates the request. When the answer is lost (no answer, a 5xx) or the forge says one
    /// already exists, the open requests are read before anything is sent again: a flaky network
    /// never leaves two release requests behind.
    package func create(
        head: String, base: String, title: String, body: String, client: RetryingHTTPClient
    ) async throws -> ForgeRequest {
        try await client.createOnce("opening the \(noun) from \(head)", exists: Self.alreadyOpen) {
            try await create(head: head, base: base, title: title, body: body)
        } find: {
            try await relctlRequests(head: head).first { $0.base == base }
        }
    }

    /// The open requests that are relctl's: from the branch `head` of this repository itself. A
    /// fork's request from a branch of the same name is someone else's: never updated, closed or
    /// adopted (its commits are the fork's).
    package func relctlRequests(head: String) async throws -> [ForgeRequest] {
        try await openRequests(head: head).filter { $0.isRelctls(head: head) }
    }

    /// GitHub's 422 "A pull request already exists", GitLab's and Gitea's 409.
    package static func alreadyOpen(_ error: any Error) -> Bool {
        guard case let PublishError.api(_, status, message, _, details)? = error as? PublishError else { return false }
        if status == 409 { return true }
        return status == 422 && (details + [message]).contains { $0.contains("already exists") }
    }
}

/// A pull request (GitLab: merge request) as relctl handles one: the number the API addresses it
/// by (GitHub's and Gitea's `number`, GitLab's `iid`), its title and body, its branches and its
/// page, and the repositories its head and base branches belong to (the forge's numeric ids:
/// GitHub's and Gitea's `head.repo.id`/`base.repo.id`, GitLab's `source_project_id` and
/// `target_project_id`; nil when the forge names none, as for a deleted fork).
package struct ForgeRequest: Sendable, Equatable {
    package var number: Int
    package var title: String
    package var body: String
    package var head: String
    package var base: String
    package var url: String
    package var sourceRepository: Int?
    package var targetRepository: Int?

    package init(
        number: Int, title: String, body: String, head: String, base: String, url: String, sourceRepository: Int?,
        targetRepository: Int?
    ) {
        self.number = number
        self.title = title
        self.body = body
        self.head = head
        self.base = base
        self.url = url
        self.sourceRepository = sourceRepository
        self.targetRepository = targetRepository
    }

    /// The request identity rule: relctl's only when its head branch is `head` and it comes from
    /// the repository it targets (known on both sides), never from a fork.
    package func isRelctls(head: String) -> Bool {
        self.head == head && sourceRepository != nil && sourceRepository == targetRepository
    }
}
