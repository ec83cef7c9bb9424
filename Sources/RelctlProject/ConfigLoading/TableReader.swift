import Foundation
import RelctlBasics
import RelctlModel

/// Typed, checked access to one TOML table. Every key asked for becomes a known key; `finish()`
/// then reports the keys nobody asked for, with the closest known one as a suggestion.
package final class TableReader {
    package let document: TOMLDocument
    /// The table's path for messages and line lookup: `project`, `target[2]`, `archive.symlink[0]`.
    package let path: String
    package let values: [String: TOMLNode]
    package let problems: DiagnosticsEngine
    private var known: [String] = []

    package init(document: TOMLDocument, path: String, values: [String: TOMLNode], problems: DiagnosticsEngine) {
        self.document = document
        self.path = path
        self.values = values
        self.problems = problems
    }

    /// The reader for the whole document.
    package convenience init(document: TOMLDocument, problems: DiagnosticsEngine) {
        self.init(document: document, path: "", values: document.root, problems: problems)
    }

    package func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
    package func line(of key: String) -> Int? { document.locator.line(of: keyPath(key)) }
    /// The line of this table's header (or its first key).
    package var line: Int? { document.locator.line(of: path) }

    /// Reports a problem about `key` at its line.
    package func report(_ key: String?, _ message: String) {
        problems.error(.badInput, file: document.path, line: key.map(line(of:)) ?? line, message)
    }

    private func value(_ key: String) -> TOMLNode? {
        if !known.contains(key) { known.append(key) }
        return values[key]
    }

    private func mismatch(_ key: String, _ expected: String, _ found: TOMLNode) {
        report(key, "`\(keyPath(key))` must be \(expected), found \(found.typeName)")
    }

    package func string(_ key: String) -> String? {
        guard let node = value(key) else { return nil }
        guard let text = node.string else { mismatch(key, "a string", node); return nil }
        return text
    }

    package func bool(_ key: String) -> Bool? {
        guard let node = value(key) else { return nil }
        guard let flag = node.bool else { mismatch(key, "true or false", node); return nil }
        return flag
    }

    package func integer(_ key: String) -> Int? {
        guard let node = value(key) else { return nil }
        guard let number = node.integer else { mismatch(key, "an integer", node); return nil }
        return number
    }

    /// An array of strings; a lone string is accepted as a one-element array.
    package func strings(_ key: String) -> [String]? {
        guard let node = value(key) else { return nil }
        if let text = node.string { return [text] }
        guard let items = node.array else { mismatch(key, "an array of strings", node); return nil }
        var result: [String] = []
        for item in items {
            guard let text = item.string else { mismatch(key, "an array of strings", item); return nil }
            result.append(text)
        }
        return result
    }

    /// A sub-table (`[archive]` or an inline table).
    package func table(_ key: String) -> TableReader? {
        guard let node = value(key) else { return nil }
        guard let values = node.table else { mismatch(key, "a table", node); return nil }
        return TableReader(document: document, path: keyPath(key), values: values, problems: problems)
    }

    /// An array of tables (`[[target]]`, or an array of inline tables).
    package func tables(_ key: String) -> [TableReader] {
        guard let node = value(key) else { return [] }
        if let single = node.table {
            return [TableReader(document: document, path: keyPath(key), values: single, problems: problems)]
        }
        guard let items = node.array else { mismatch(key, "an array of tables", node); return [] }
        var result: [TableReader] = []
        for (index, item) in items.enumerated() {
            guard let values = item.table else { mismatch(key, "an array of tables", item); continue }
            result.append(
                TableReader(document: document, path: "\(keyPath(key))[\(index)]", values: values, problems: problems))
        }
        return result
    }

    /// An array whose items may be plain strings or tables (`files = ["README.md", { from = "a", to = "b" }]`).
    package func items(_ key: String) -> [Either<String, TableReader>] {
        guard let node = value(key) else { return [] }
        guard let items = node.array else { mismatch(key, "an array", node); return [] }
        var result: [Either<String, TableReader>] = []
        for (index, item) in items.enumerated() {
            if let text = item.string {
                result.append(.left(text))
            } else if let values = item.table {
                result.append(
                    .right(
                        TableReader(
                            document: document, path: "\(keyPath(key))[\(index)]", values: values, problems: problems)))
            } else {
                mismatch(key, "an array of strings or tables", item)
            }
        }
        return result
    }

    /// Declares keys as known without reading them (read elsewhere, or reserved).
    package func allow(_ keys: String...) { known.append(contentsOf: keys) }

    /// Reports every key that was not asked for, suggesting the closest known key.
    package func finish() {
        for key in values.keys.sorted() where !known.contains(key) {
            let scope =
                path.isEmpty
                ? "at the top level"
                : "in [\(path.replacingOccurrences(of: #"\[\d+\]"#, with: "", options: .regularExpression))]"
            report(key, "unknown key `\(key)` \(scope)\(Suggestion.hint(for: key, in: known))")
        }
    }
}

/// One of two shapes a config value may take.
package enum Either<Left, Right> {
    case left(Left)
    case right(Right)
}
