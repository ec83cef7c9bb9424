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

    /// Everything found, in one engine; `problems` and `warnings` are its JSON view.
    package let diagnostics = DiagnosticsEngine()
    public var manifests: Int = 0
    public var targets: Int = 0
    /// At a workspace root: each member and what was checked of it (its manifests and targets).
    public var members: [Member]?

    public struct Member: Sendable, Encodable, Equatable {
        public var name: String
        public var path: String
        public var tagFormat: String
        public var manifests: Int
        public var targets: Int
        /// Its own relctl.toml, or a config made from its manifests.
        public var ownConfig: Bool
    }

    package var ok: Bool { !diagnostics.hasErrors }
    package var problems: [Item] { diagnostics.errors.map(Item.init) }
    public var warnings: [Item] { diagnostics.warnings.map(Item.init) }

    package enum CodingKeys: String, CodingKey { case ok, problems, warnings, manifests, targets, members }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ok, forKey: .ok)
        try container.encode(problems, forKey: .problems)
        try container.encode(warnings, forKey: .warnings)
        try container.encode(manifests, forKey: .manifests)
        try container.encode(targets, forKey: .targets)
        try container.encodeIfPresent(members, forKey: .members)
    }

    // What `check` finds is bad input (exit 2), except a mismatch between versions that are all
    // valid (a stale lockfile entry): exit 1, as `validate-tag` reports the same finding.
    package func problem(_ d: Diagnostic) { diagnostics.record(d.withSeverity(.error), exitCode: .badInput) }
    package func mismatch(_ d: Diagnostic) { diagnostics.record(d.withSeverity(.error), exitCode: .failure) }
    package func warning(_ d: Diagnostic) { diagnostics.record(d.withSeverity(.warning)) }

    /// The error to exit with, or nil.
    public var error: ProblemList? { diagnostics.problems() }
}

extension CheckReport.Item {
    package init(_ diagnostic: Diagnostic) {
        self.init(file: diagnostic.file, line: diagnostic.line, message: diagnostic.message)
    }
}
