import Foundation

/// Collects problems while a file is read, so every one of them is reported at once.
final class DiagnosticCollector {
    private(set) var diagnostics: [Diagnostic] = []
    init() {}
    func add(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
    func add(file: String?, line: Int?, _ message: String) {
        diagnostics.append(Diagnostic(file: file, line: line, message))
    }
    var isEmpty: Bool { diagnostics.isEmpty }
}
