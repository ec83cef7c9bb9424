import Foundation
import Synchronization

/// How much human output to print on stderr.
public enum Verbosity: Int, Sendable, Comparable {
    case quiet = 0, normal = 1, verbose = 2
    public static func < (lhs: Verbosity, rhs: Verbosity) -> Bool { lhs.rawValue < rhs.rawValue }
}
