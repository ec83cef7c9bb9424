import Foundation
import RelctlBasics

/// Problems publishing the `[pypi]` wheels. A missing token or wheel is bad input (exit 2), found
/// before any upload; what the index refuses, or a wheel it holds with other bytes, is a failed
/// step (exit 1).
package enum PyPIError: RelctlError, CustomStringConvertible {
    case noToken(variable: String)
    /// A wheel this release makes is not in dist/.
    case missingWheels(dist: String, names: [String])
    /// The index holds a file of this name whose SHA-256 is not the local wheel's.
    case differingFiles(index: String, names: [String])
    /// The index answered an upload or a listing with an error.
    case refused(request: String, status: Int, message: String)
    /// The index answered in a way relctl cannot read.
    case unreadable(request: String, reason: String)
    /// A wheel stays missing after its upload was accepted.
    case notListed(index: String, names: [String])

    package var exitCode: RelctlExitCode {
        switch self {
        case .noToken, .missingWheels: return .badInput
        default: return .failure
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .noToken(let variable):
            return [
                Diagnostic(
                    "[pypi] publishes with an API token: set \(variable) (a PyPI API token, `pypi-…`; it is sent as the password of the user `__token__`); nothing was uploaded"
                )
            ]
        case .missingWheels(let dist, let names):
            return [
                Diagnostic(
                    "\(dist) lacks the wheel(s) of this release: \(names.joined(separator: ", ")); run `relctl release` (its python-wheel stage writes them) first"
                )
            ]
        case .differingFiles(let index, let names):
            return [
                Diagnostic(
                    "\(index) already holds \(names.joined(separator: ", ")) with another SHA-256 than dist/; an index never takes a file name twice, so release a new version"
                )
            ]
        case .refused(let request, let status, let message):
            return [Diagnostic("\(request) answered \(status): \(message)")]
        case .unreadable(let request, let reason):
            return [Diagnostic("\(request): \(reason)")]
        case .notListed(let index, let names):
            return [
                Diagnostic(
                    "\(index) accepted \(names.joined(separator: ", ")) but does not list it; run `relctl publish` again to check"
                )
            ]
        }
    }

    package var description: String { message }
}
