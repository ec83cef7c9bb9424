import Foundation
import RelctlBasics

/// Layout problems of several targets, one line per distinct problem: an unsafe link in a shared
/// demo tree is one problem, not one per target.
package struct TargetProblems {
    private var problems: [(diagnostic: Diagnostic, targets: [String])] = []

    package var isEmpty: Bool { problems.isEmpty }

    package mutating func add(_ diagnostic: Diagnostic, target: String) {
        if let index = problems.firstIndex(where: { $0.diagnostic == diagnostic }) {
            problems[index].targets.append(target)
        } else {
            problems.append((diagnostic, [target]))
        }
    }

    /// Each problem prefixed with the targets it concerns, unless it names its target already or
    /// concerns every one of `targetCount` (> 1) targets.
    package func diagnostics(targetCount: Int) -> [Diagnostic] {
        problems.map { diagnostic, targets in
            let message = diagnostic.message
            if targets.contains(where: message.contains) || (targetCount > 1 && targets.count == targetCount) {
                return diagnostic
            }
            return Diagnostic(
                file: diagnostic.file, line: diagnostic.line, "\(targets.joined(separator: ", ")): \(message)")
        }
    }
}
