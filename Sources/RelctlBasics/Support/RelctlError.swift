import Foundation

/// Every error relctl reports conforms to this: it knows its contract exit code and the
/// lines to print, one per problem.
public protocol RelctlError: Error, Sendable {
    var exitCode: RelctlExitCode { get }
    var diagnostics: [Diagnostic] { get }
}

extension RelctlError {
    /// The diagnostics joined, one per line, for tests and logs.
    public var message: String { diagnostics.map(\.description).joined(separator: "\n") }
}
