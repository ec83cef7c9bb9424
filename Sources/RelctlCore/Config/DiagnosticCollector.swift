import Foundation
import RelctlBasics

/// Collects problems while a file is read, so every one of them is reported at once.
package final class DiagnosticCollector {
    package private(set) var diagnostics: [Diagnostic] = []
    package init() {}
    package func add(_ diagnostic: Diagnostic) { diagnostics.append(diagnostic) }
    package func add(file: String?, line: Int?, _ message: String) {
        diagnostics.append(Diagnostic(file: file, line: line, message))
    }
    package var isEmpty: Bool { diagnostics.isEmpty }
}
