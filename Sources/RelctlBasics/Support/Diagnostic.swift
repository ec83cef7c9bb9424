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
