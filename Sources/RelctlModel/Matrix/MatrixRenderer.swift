import Foundation
import RelctlBasics

/// Renders resolved targets in each `MatrixFormat`. Output is deterministic: configured order, sorted keys.
public enum MatrixRenderer {
    /// The compact one-line `{"include":[…]}` document, newline-terminated.
    public static func github(_ targets: [Target]) -> String {
        // Hand-built so the key order is exactly the documented one and there is no whitespace.
        let entries = targets.map { entry -> String in
            let e = GitHubMatrixEntry(entry)
            let fields = [
                ("target", e.target), ("runner", e.runner), ("format", e.format), ("os", e.os), ("arch", e.arch),
            ]
            return "{" + fields.map { "\(QuotedString.basic($0.0)):\(QuotedString.basic($0.1))" }.joined(separator: ",")
                + "}"
        }
        return "{\"include\":[" + entries.joined(separator: ",") + "]}\n"
    }

    /// Pretty JSON of every target field (`env` is null when the triple has none).
    public static func json(_ targets: [Target]) throws -> String {
        try JSONOutput.encode(MatrixDocument(targets: targets.map(MatrixDocument.Item.init)))
    }

    /// Aligned columns: TARGET RUNNER FORMAT OS ARCH LINKS.
    public static func table(_ targets: [Target]) -> String {
        let header = ["TARGET", "RUNNER", "FORMAT", "OS", "ARCH", "LINKS"]
        let rows = targets.map {
            [$0.triple, $0.runner, $0.formats.joined(separator: ","), $0.os, $0.arch, $0.links.rawValue]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}

/// How `relctl matrix` prints the expanded targets.
public enum MatrixFormat: String, Sendable, CaseIterable {
    /// Aligned columns for people.
    case table
    /// Every field of every target.
    case json
    /// `{"include":[{"target","runner","format","os","arch"}]}` for a GitHub Actions `fromJSON` matrix.
    case github
}

/// One `include` entry of the GitHub Actions matrix. Field order is the contract's.
package struct GitHubMatrixEntry: Sendable, Equatable, Codable {
    package var target: String
    package var runner: String
    package var format: String
    package var os: String
    package var arch: String

    package init(_ target: Target) {
        self.target = target.triple
        self.runner = target.runner
        self.format = target.format
        self.os = target.os
        self.arch = target.arch
    }
}
