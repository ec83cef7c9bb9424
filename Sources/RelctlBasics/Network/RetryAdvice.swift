import Foundation

/// What a response says about retrying it.
package enum RetryAdvice: Equatable, Sendable {
    /// Success, or a failure that will not change by asking again (404, 422, 401…).
    case final
    /// A rate limit: the server did not act on the request; wait until the date, then ask again.
    case rateLimited(until: Date)
    /// A server-side failure (5xx): the request may or may not have taken effect.
    case serverError

    /// Reads GitHub's documented rate-limit signals: 429, or 403 with `Retry-After` or with
    /// `x-ratelimit-remaining: 0` (then `x-ratelimit-reset` is the epoch second it lifts), and
    /// GitLab's `RateLimit-Remaining: 0` with `RateLimit-Reset` alike.
    package static func of(_ response: HTTPResponse, now: Date, policy: RetryPolicy, attempt: Int) -> RetryAdvice {
        let status = response.status
        if status == 429 || status == 403 {
            if let retryAfter = response.header("Retry-After").flatMap({ Self.seconds(fromRetryAfter: $0, now: now) }) {
                return .rateLimited(until: now.addingTimeInterval(Self.clamped(retryAfter)))
            }
            // GitHub's `x-ratelimit-*`, or GitLab's `RateLimit-*` (docs.gitlab.com, "Rate limits":
            // `RateLimit-Remaining`, `RateLimit-Reset` as a Unix time) when no Retry-After came.
            if let remaining = response.header("x-ratelimit-remaining") ?? response.header("RateLimit-Remaining"),
                remaining == "0",
                let reset = (response.header("x-ratelimit-reset") ?? response.header("RateLimit-Reset"))
                    .flatMap(Double.init), !reset.isNaN
            {
                // One extra second: the reset is a whole second and clocks differ a little.
                let wait = Self.clamped(reset + 1 - now.timeIntervalSince1970)
                return .rateLimited(until: now.addingTimeInterval(wait))
            }
            // GitHub's advice for a secondary limit without headers: wait at least a minute.
            if status == 429 {
                return .rateLimited(until: now.addingTimeInterval(max(60, policy.backoff(after: attempt))))
            }
            return .final
        }
        if (500...599).contains(status) { return .serverError }
        return .final
    }

    /// The longest wait a server can announce, in seconds (a year). Any wait is whole seconds
    /// somewhere (messages, `Int`); `1e300`, `inf` or a reset in the year 10^12 must not trap, and
    /// every wait this long is refused by the policy's `maxServerWait` with a clear message anyway.
    package static let longestWait: TimeInterval = 366 * 24 * 3600

    /// `seconds` within 0…`longestWait`; NaN counts as the longest.
    package static func clamped(_ seconds: TimeInterval) -> TimeInterval {
        guard !seconds.isNaN else { return longestWait }
        return min(max(0, seconds), longestWait)
    }

    /// `Retry-After` is either delta-seconds or an HTTP date.
    package static func seconds(fromRetryAfter value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // NaN is no number of seconds: the longest wait, which the policy refuses with a message.
        if let seconds = Double(trimmed) { return seconds.isNaN ? longestWait : max(0, seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
