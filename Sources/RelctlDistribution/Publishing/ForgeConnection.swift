import Foundation
import RelctlBasics

/// How every forge call is sent, read from the environment and checked before the first request:
/// the attempts per request (`RELCTL_HTTP_RETRIES`, over the built-in policy), the idle timeout
/// (`RELCTL_HTTP_TIMEOUT`, 60 s by default) and the overall deadline (`RELCTL_HTTP_DEADLINE`).
package struct ForgeConnection: Sendable {
    package var policy: RetryPolicy
    package var timeout: TimeInterval
    package var deadline: TimeInterval

    package init(_ policy: RetryPolicy = .standard, environment: [String: String]) throws {
        self.policy = try GitHubPublisher.policy(policy, environment: environment)
        timeout = try GitHubPublisher.seconds("RELCTL_HTTP_TIMEOUT", environment) ?? 60
        deadline = try GitHubPublisher.seconds("RELCTL_HTTP_DEADLINE", environment) ?? HTTPRequest.defaultDeadline
    }

    /// `http` with the policy's retries and rate-limit waits, each wait said on the console.
    package func retrying(_ http: any HTTPClient, console: Console) -> RetryingHTTPClient {
        RetryingHTTPClient(base: http, policy: policy, onWait: { console.warning($0) })
    }
}

extension RetryingHTTPClient {
    /// A create call that must never leave two of a thing behind (a draft release, a release pull
    /// request), tried up to the policy's attempts. After a failure whose outcome is unknown (no
    /// answer, a 5xx) it waits the policy's backoff (`doing` says what for); after that, or after a
    /// failure `exists` reads as "already there", `find` looks for what an earlier attempt made
    /// before anything is sent again.
    package func createOnce<T>(
        _ doing: String, exists: (any Error) -> Bool = { _ in false }, create: () async throws -> T,
        find: () async throws -> T?
    ) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await create()
            } catch let error
                where (GitHubPublisher.outcomeUnknown(error) || exists(error)) && attempt < policy.maxAttempts
            {
                if GitHubPublisher.outcomeUnknown(error) {
                    let said = (error as? any RelctlError)?.message ?? "\(error)"
                    try await backoff(after: attempt, reason: "\(doing): \(said)")
                }
                if let found = try await find() { return found }
            }
        }
    }
}
