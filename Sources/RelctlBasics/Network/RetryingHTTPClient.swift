import Foundation
import Synchronization

/// Retries over another client. Rate limits are honoured for every request sent through this
/// client: once the server says "not before T", no request of any kind leaves before T.
/// Requests whose outcome is unknown after a failure (a POST cut off, a 502 on a POST) are not
/// retried here: the caller must first look at what the server now holds.
package final class RetryingHTTPClient: HTTPClient {
    package let base: any HTTPClient
    package let policy: RetryPolicy
    private let notBefore = Mutex<Date>(.distantPast)
    private let onWait: @Sendable (String) -> Void

    package init(
        base: any HTTPClient, policy: RetryPolicy = .standard, onWait: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.base = base
        self.policy = policy
        self.onWait = onWait
    }

    package func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var attempt = 0
        while true {
            attempt += 1
            try await waitForGate()
            let response: HTTPResponse
            do {
                response = try await base.send(request)
            } catch let error as NetworkError {
                // An answer over its limit would come back the same on every attempt.
                if case .responseTooLarge = error { throw error }
                guard request.isIdempotent, attempt < policy.maxAttempts else {
                    if attempt > 1 {
                        throw NetworkError.gaveUp(request: request.summary, attempts: attempt, last: error.message)
                    }
                    throw error
                }
                let delay = policy.backoff(after: attempt)
                onWait(
                    "\(request.summary): \(error.message.replacingOccurrences(of: request.summary + ": ", with: "")); retrying in \(Self.shown(delay))"
                )
                try await Task.sleep(for: .seconds(delay))
                continue
            }
            switch RetryAdvice.of(response, now: Date(), policy: policy, attempt: attempt) {
            case .final:
                return response
            case .rateLimited(let until):
                let wait = until.timeIntervalSinceNow
                if wait > policy.maxServerWait {
                    throw NetworkError.waitTooLong(
                        request: request.summary, seconds: Int(RetryAdvice.clamped(wait).rounded(.up)), until: until)
                }
                guard attempt < policy.maxAttempts else { return response }
                notBefore.withLock { $0 = max($0, until) }
                onWait(
                    "\(request.summary): rate limited (HTTP \(response.status)); waiting \(Self.shown(max(0, wait))) as the server asks"
                )
            case .serverError:
                guard request.isIdempotent, attempt < policy.maxAttempts else { return response }
                let delay = policy.backoff(after: attempt)
                onWait("\(request.summary): HTTP \(response.status); retrying in \(Self.shown(delay))")
                try await Task.sleep(for: .seconds(delay))
            }
        }
    }

    /// Sleeps until the latest rate-limit deadline any response has announced.
    package func waitForGate() async throws {
        while true {
            let wait = notBefore.withLock { $0 }.timeIntervalSinceNow
            guard wait > 0 else { return }
            try await Task.sleep(for: .seconds(wait))
        }
    }

    /// Waits the policy's backoff for `attempt`, for callers that retry a request themselves.
    package func backoff(after attempt: Int, reason: String) async throws {
        let delay = policy.backoff(after: attempt)
        onWait("\(reason); retrying in \(Self.shown(delay))")
        try await Task.sleep(for: .seconds(delay))
    }

    package static func shown(_ seconds: TimeInterval) -> String {
        seconds < 10 ? String(format: "%.1fs", seconds) : "\(Int(seconds.rounded()))s"
    }
}

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
