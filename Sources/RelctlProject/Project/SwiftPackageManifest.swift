import Foundation
import RelctlBasics
import RelctlModel

/// The declarations `relctl init` reads from a Package.swift, without running it: names matched
/// by a pattern, each with the `#if` conditions around it (swift-argument-parser declares its
/// macOS-only executables inside `#if os(macOS)`, so Linux builds do not produce them).
package struct SwiftPackageManifest {
    package struct Declaration: Equatable {
        package var name: String
        /// The conditions of the `#if` blocks it sits in, innermost last.
        package var conditions: [String]

        /// True unless a condition names platforms without Linux (`os(macOS)`, `canImport(Darwin)`).
        package var buildsOnLinux: Bool {
            conditions.allSatisfy { condition in
                let platformSpecific = condition.contains("os(") || condition.contains("canImport(Darwin)")
                return !platformSpecific || (condition.contains("os(Linux)") && !condition.contains("!os(Linux)"))
            }
        }
    }

    package let text: String
    /// For each line (0-based), the `#if` conditions in force there.
    private let conditionsByLine: [[String]]

    package init(_ text: String) {
        self.text = text
        var stack: [String] = []
        var perLine: [[String]] = []
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                stack.append(String(line.dropFirst(4)))
            } else if line.hasPrefix("#elseif "), !stack.isEmpty {
                stack[stack.count - 1] = String(line.dropFirst(8))
            } else if line.hasPrefix("#else"), !stack.isEmpty {
                stack[stack.count - 1] = "!(\(stack[stack.count - 1]))"
            } else if line.hasPrefix("#endif"), !stack.isEmpty {
                stack.removeLast()
            }
            perLine.append(stack)
        }
        conditionsByLine = perLine
    }

    /// Every match of `pattern` (its first group is the name), in order, with its conditions.
    package func declarations(_ pattern: String) -> [Declaration] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            guard let range = Range(match.range(at: 1), in: text) else { return nil }
            let line = ManifestText.line(of: range.lowerBound, in: text) - 1
            return Declaration(
                name: String(text[range]), conditions: line < conditionsByLine.count ? conditionsByLine[line] : [])
        }
    }
}
