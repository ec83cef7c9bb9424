import Foundation

/// Collects problems while a file is read, so every one of them is reported at once.
public final class DiagnosticCollector {
    public private(set) var diagnostics: [Diagnostic] = []
    public init() {}
    public func add(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
    public func add(file: String?, line: Int?, _ message: String) {
        diagnostics.append(Diagnostic(file: file, line: line, message))
    }
    public var isEmpty: Bool { diagnostics.isEmpty }
}
