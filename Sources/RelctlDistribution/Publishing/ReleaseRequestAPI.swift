import Foundation
import RelctlBasics

/// The pull-request calls `release-pr` makes, on each forge in its own API: the open requests
/// from one head branch (every page), create, update the title and body, close.
package protocol ReleaseRequestAPI: Sendable {
    /// "pull request", or "merge request" on GitLab.
    var noun: String { get }
    /// The repository or project, as messages name it.
    var place: String { get }
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
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await create(head: head, base: base, title: title, body: body)
            } catch let error
                where (GitHubPublisher.outcomeUnknown(error) || Self.alreadyOpen(error))
                && attempt < client.policy.maxAttempts
            {
                if GitHubPublisher.outcomeUnknown(error) {
                    try await client.backoff(
                        after: attempt,
                        reason:
                            "opening the \(noun) from \(head): \((error as? any RelctlError)?.message ?? "\(error)")"
                    )
                }
                if let found = try await openRequests(head: head).first(where: { $0.base == base }) { return found }
            }
        }
    }

    /// GitHub's 422 "A pull request already exists", GitLab's and Gitea's 409.
    package static func alreadyOpen(_ error: any Error) -> Bool {
        guard case let PublishError.api(_, status, message, _, details)? = error as? PublishError else { return false }
        if status == 409 { return true }
        return status == 422 && (details + [message]).contains { $0.contains("already exists") }
    }
}

/// A pull request (GitLab: merge request) as relctl handles one: the number the API addresses it
/// by (GitHub's and Gitea's `number`, GitLab's `iid`), its title and body, its branches and its page.
package struct ForgeRequest: Sendable, Equatable {
    package var number: Int
    package var title: String
    package var body: String
    package var head: String
    package var base: String
    package var url: String

    package init(number: Int, title: String, body: String, head: String, base: String, url: String) {
        self.number = number
        self.title = title
        self.body = body
        self.head = head
        self.base = base
        self.url = url
    }
}
