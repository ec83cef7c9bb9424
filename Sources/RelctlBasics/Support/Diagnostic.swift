import Foundation

/// One finding for the user, optionally tied to a file and line: an error to act on, or a
/// warning that does not stop the command.
public struct Diagnostic: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Severity: String, Sendable, Codable {
        case error, warning
    }

    package var severity: Severity
    public var file: String?
    package var line: Int?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, _ message: String, severity: Severity = .error) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message`, `FILE: message` or just `message`.
    public var description: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line): \(message)"
        case let (file?, nil): return "\(file): \(message)"
        default: return message
        }
    }

    /// The same finding at another severity.
    package func withSeverity(_ severity: Severity) -> Diagnostic {
        var copy = self
        copy.severity = severity
        return copy
    }
}

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

/// Several problems collected before deciding to stop, in the swift-format style: the exit
/// code is the most severe among them.
public struct ProblemList: RelctlError, CustomStringConvertible, StorageFaultCarrying {
    public var exitCode: RelctlExitCode
    public var diagnostics: [Diagnostic]
    /// The first storage fault among the problems (`StorageFault`).
    package var storageFault: Int32?

    package init(exitCode: RelctlExitCode, diagnostics: [Diagnostic]) {
        self.exitCode = exitCode
        self.diagnostics = diagnostics
    }

    package init(_ errors: [any RelctlError]) {
        self.exitCode = errors.map(\.exitCode).max() ?? .failure
        self.diagnostics = errors.flatMap(\.diagnostics)
        self.storageFault = errors.lazy.compactMap { StorageFault.code(of: $0) }.first
    }

    public var description: String { message }
}
