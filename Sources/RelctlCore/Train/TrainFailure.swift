import Foundation

/// A failed train: the report (for `--json`) and the error to exit with.
public struct TrainFailure: Error, Sendable {
    public var report: TrainReport
    public var error: TrainError
}
