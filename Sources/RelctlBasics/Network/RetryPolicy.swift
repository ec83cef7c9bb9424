import Foundation

/// How often and how long to retry. Backoff doubles from `baseDelay` up to `maxDelay`, with a
/// little jitter so parallel jobs do not retry in lockstep; a server's own wait
/// (`Retry-After`, `x-ratelimit-reset`) always wins over the computed one.
package struct RetryPolicy: Sendable {
    package var maxAttempts: Int
    package var baseDelay: TimeInterval
    package var maxDelay: TimeInterval
    /// A server asking for a longer wait than this fails the command instead (with when to retry).
    package var maxServerWait: TimeInterval

    package init(
        maxAttempts: Int = 5, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 30,
        maxServerWait: TimeInterval = 900
    ) {
        self.maxAttempts = maxAttempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxServerWait = maxServerWait
    }

    package static let standard = RetryPolicy()

    /// The wait before attempt `attempt + 1` (attempt counts from 1).
    package func backoff(after attempt: Int) -> TimeInterval {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        return exponential * Double.random(in: 0.8...1.2)
    }
}
