import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A fixture step that failed (a helper command, a stand-in server), or a stage that fails on
/// purpose: exit 1 with the message as its only diagnostic.
public struct TestFailure: RelctlError, CustomStringConvertible {
    public var exitCode: RelctlExitCode { .failure }
    public var diagnostics: [Diagnostic]

    public init(_ message: String) {
        diagnostics = [Diagnostic(message)]
    }

    public var description: String { message }
}
