import Foundation

/// The exit codes fixed by the product contract.
public enum RelctlExitCode: Int32, Sendable, Comparable {
    case success = 0
    /// The thing checked is wrong or a step failed (tag mismatch, checksum mismatch, build failed).
    case failure = 1
    /// Bad input: unreadable or invalid config, bad tag syntax, missing file, unknown id.
    case badInput = 2
    /// Command-line usage (ArgumentParser's own).
    case usage = 64

    public static func < (lhs: RelctlExitCode, rhs: RelctlExitCode) -> Bool { lhs.rawValue < rhs.rawValue }
}
