import Foundation

/// Every target's result, in the order the targets were given.
public struct BuildReport: Sendable, Encodable {
    public var tag: String
    var version: String
    var commit: String
    public var results: [TargetBuildResult]

    var failed: [TargetBuildResult] { results.filter { !$0.succeeded } }
    var succeeded: Bool { failed.isEmpty }

    /// The error to exit with (1) when any target failed, naming each one and why.
    public var failure: BuildError? { succeeded ? nil : .failed(failed) }
}
