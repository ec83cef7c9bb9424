import Foundation
import RelctlBasics
import RelctlModel

/// Why a train stopped.
public struct TrainError: RelctlError {
    public var exitCode: RelctlExitCode = .failure
    public var diagnostics: [Diagnostic]
}

/// A failed train: the report (for `--json`) and the error to exit with.
public struct TrainFailure: Error, Sendable {
    public var report: TrainReport
    public var error: TrainError
}
