import Foundation

/// The result of a release: the plan/report, and the error to exit with (nil on success).
public struct ReleaseOutcome: Sendable {
    public var plan: ReleasePlan
    public var error: (any RelctlError)?
}
