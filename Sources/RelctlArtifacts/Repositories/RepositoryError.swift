import Foundation
import RelctlBasics

/// Problems building, reading or verifying a package repository.
package enum RepositoryError: RelctlError, Equatable {
    /// A value the repository's text format cannot hold (exit 2).
    case badValue(field: String, value: String, reason: String)
    /// Input that is missing or unreadable: a package, the previous repository, the key (exit 2).
    case badInput(path: String, reason: String)
    /// An index or signature that does not verify, or a package whose hash differs (exit 1).
    case mismatch(path: String, reason: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .mismatch: return .failure
        case .badValue, .badInput: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .badValue(let field, let value, let reason):
            return [Diagnostic("`\(field)` \(QuotedString.basic(value)): \(reason)")]
        case .badInput(let path, let reason): return [Diagnostic(file: path, reason)]
        case .mismatch(let path, let reason): return [Diagnostic(file: path, reason)]
        }
    }
}
