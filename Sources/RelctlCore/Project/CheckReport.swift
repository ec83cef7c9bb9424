import Foundation
import RelctlBasics

/// `relctl check`: the config, every manifest, every target and every packaged path, with all
/// problems reported together.
public struct CheckReport: Sendable, Encodable {
    public struct Item: Sendable, Encodable, Equatable {
        public var file: String?
        public var line: Int?
        public var message: String
    }

    package var ok: Bool { problems.isEmpty }
    package var problems: [Item] = []
    public var warnings: [Item] = []
    public var manifests: Int = 0
    public var targets: Int = 0

    package enum CodingKeys: String, CodingKey { case ok, problems, warnings, manifests, targets }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(problems, forKey: .problems)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(manifests, forKey: .manifests)
        try container.encode(targets, forKey: .targets)
    }

    package mutating func problem(_ d: Diagnostic) { problems.append(Item(file: d.file, line: d.line, message: d.message)) }
    package mutating func warning(_ d: Diagnostic) { warnings.append(Item(file: d.file, line: d.line, message: d.message)) }

    /// The error to exit with (2: everything `check` finds is bad input), or nil.
    public var error: ProblemList? {
        ok
            ? nil
            : ProblemList(
                exitCode: .badInput, diagnostics: problems.map { Diagnostic(file: $0.file, line: $0.line, $0.message) })
    }
}
