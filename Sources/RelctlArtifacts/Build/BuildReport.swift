import Foundation
import RelctlBasics

/// Every target's result, in the order the targets were given.
public struct BuildReport: Sendable, Encodable {
    public var tag: String
    package var version: String
    package var commit: String
    public var results: [TargetBuildResult]

    package var failed: [TargetBuildResult] { results.filter { !$0.succeeded } }
    package var succeeded: Bool { failed.isEmpty }

    /// The error to exit with (1) when any target failed, naming each one and why.
    public var failure: BuildError? { succeeded ? nil : .failed(failed) }
}
