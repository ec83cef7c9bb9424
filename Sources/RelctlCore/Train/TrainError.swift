import Foundation

/// Why a train stopped.
public struct TrainError: RelctlError {
    public var exitCode: RelctlExitCode = .failure
    public var diagnostics: [Diagnostic]
}
