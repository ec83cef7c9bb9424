/// A string with `{placeholder}` slots, checked against the placeholders its field allows.
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// Every placeholder relctl knows, in the contract's order.
    public static let all: [String] = ["project", "version", "tag", "target", "os", "arch", "binary"]
    /// Placeholders available wherever a target is known, but not per binary.
    public static let perTarget: [String] = ["project", "version", "tag", "target", "os", "arch"]

    public let text: String
    public let placeholders: [String]

    /// A template whose placeholders have already been checked (defaults, tests).
    public init(_ text: String) {
        self.text = text
        self.placeholders = Self.scan(text).names
    }

    /// Checks every `{name}` against `allowed`; throws naming the first unknown one and the closest valid one.
    public init(_ text: String, allowed: [String]) throws {
        let scan = Self.scan(text)
        if let problem = scan.problem { throw SimpleError(.badInput, "`\(text)`: \(problem)") }
        for name in scan.names where !allowed.contains(name) {
            if Self.all.contains(name) {
                throw SimpleError(.badInput, "placeholder `{\(name)}` cannot be used here; allowed: \(allowed.map { "{\($0)}" }.joined(separator: " "))")
            }
            let hint = Suggestion.closest(to: name, in: allowed).map { "; did you mean `{\($0)}`?" } ?? "; known: \(allowed.map { "{\($0)}" }.joined(separator: " "))"
            throw SimpleError(.badInput, "unknown placeholder `{\(name)}` in `\(text)`\(hint)")
        }
        self.text = text
        self.placeholders = scan.names
    }

    private static func scan(_ text: String) -> (names: [String], problem: String?) {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(of: "}") else { return (names, "a `{` is never closed") }
            let name = String(after[..<close])
            if name.isEmpty || name.contains("{") { return (names, "`{\(name)}` is not a placeholder") }
            names.append(name)
            rest = after[after.index(after: close)...]
        }
        return (names, nil)
    }

    /// Replaces each placeholder with its value; placeholders without a value stay as written.
    public func render(_ values: [String: String]) -> String {
        var result = text
        for name in placeholders {
            if let value = values[name] { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        }
        return result
    }

    public var description: String { text }
}

import Foundation
