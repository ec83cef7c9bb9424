import Foundation

/// Failures below HTTP or after every retry: exit 1 (the step failed), never bad input.
package enum NetworkError: RelctlError, CustomStringConvertible {
    /// No response at all: connection refused or reset, DNS, TLS, timeout.
    case transport(request: String, reason: String)
    /// Still failing after the retries the policy allows.
    case gaveUp(request: String, attempts: Int, last: String)
    /// The server asks us to wait longer than we are willing to.
    case waitTooLong(request: String, seconds: Int, until: Date)

    package var exitCode: RelctlExitCode { .failure }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .transport(request, reason):
            return [Diagnostic("\(request): \(reason)")]
        case let .gaveUp(request, attempts, last):
            return [
                Diagnostic(
                    "\(request): still failing after \(attempts) attempts (\(last)); run the same command again later, it resumes where it stopped"
                )
            ]
        case let .waitTooLong(request, seconds, until):
            return [
                Diagnostic(
                    "\(request): rate limited for \(seconds)s (until \(ISO8601DateFormatter().string(from: until))); run the same command again after that, it resumes where it stopped"
                )
            ]
        }
    }

    package var description: String { message }
}
