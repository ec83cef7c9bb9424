import Foundation
import RelctlBasics
import RelctlModel

/// Writes, checks or force-replaces the release workflow following the generated-file rules.
public enum WorkflowWriter {
    /// `check`: compare only, never write. `force`: replace even a hand-edited file.
    public static func generate(
        config: RelctlConfig, check: Bool, force: Bool
    ) throws -> (path: String, outcome: WorkflowOutcome) {
        try generate(.github, config: config, check: check, force: force)
    }

    /// The same for one provider's file. A provider whose `problems` hold an error writes
    /// nothing (exit 2): the pipeline would not install relctl or would run what the CI cannot.
    package static func generate(
        _ provider: CIProvider, config: RelctlConfig, check: Bool, force: Bool
    ) throws -> (path: String, outcome: WorkflowOutcome) {
        if provider != .github {
            let errors = provider.problems(config: config).filter { $0.severity == .error }
            if !errors.isEmpty { throw CIError.cannotGenerate(errors) }
        }
        return try write(
            provider.path(config: config), generated: provider.render(config: config), config: config, check: check,
            force: force)
    }

    /// The extra files of `providers`: GitHub's release pull request workflow (`[ci] release-pr`).
    package static func extraFiles(_ providers: [CIProvider], config: RelctlConfig) -> [(path: String, text: String)] {
        guard config.ci.releasePR, providers.contains(.github) else { return [] }
        return [(ReleasePRWorkflow.path, ReleasePRWorkflow.render(config: config))]
    }

    /// Checks or writes one generated file under the generated-file rules.
    package static func write(
        _ shown: String, generated: String, config: RelctlConfig, check: Bool, force: Bool
    ) throws -> (path: String, outcome: WorkflowOutcome) {
        let url = config.root.appendingPathComponent(shown)
        // The workflow already there is a project file: one that is a link out of the project is
        // refused, not compared or replaced (issue 55).
        let existing = try ProjectFile.open(shown, in: config.root).data().map { String(decoding: $0, as: UTF8.self) }
        let state = GeneratedFile.state(existing: existing, generated: generated)
        if check {
            guard state == .current else { throw CIError.outOfDate(path: shown, state: state) }
            return (shown, .upToDate)
        }
        let outcome: WorkflowOutcome
        switch state {
        case .current: return (shown, .unchanged)
        case .missing: outcome = .created
        case .stale: outcome = .updated
        case .handEdited, .handWritten:
            guard force else { throw CIError.handEdited(path: shown, state: state) }
            outcome = .replaced
        }
        try AtomicFile.write(generated, to: url)
        return (shown, outcome)
    }

    /// The providers `ci generate` writes: `--provider` when given, else `[ci] providers`.
    package static func providers(config: RelctlConfig, chosen: CIProvider?) -> [CIProvider] {
        chosen.map { [$0] } ?? config.ci.providers
    }

    /// What to print before generating `providers`' files: GitHub's problems as they are
    /// (warnings, as before), the other providers' warnings (their errors are thrown by
    /// `generate`); a warning two pipelines share is said once.
    package static func warnings(_ providers: [CIProvider], config: RelctlConfig) -> [Diagnostic] {
        problems(providers, config: config).filter { problem in
            problem.severity == .warning
                || providers.contains(.github) && ReleaseWorkflow.problems(config: config).contains(problem)
        }
    }

    /// Every provider's problems, each once, in provider order.
    package static func problems(_ providers: [CIProvider], config: RelctlConfig) -> [Diagnostic] {
        var seen: [Diagnostic] = []
        for problem in providers.flatMap({ $0.problems(config: config) }) where !seen.contains(problem) {
            seen.append(problem)
        }
        return seen
    }
}

extension WorkflowWriter {
    /// The failures of several providers' files as one error (nil when none failed).
    package static func combined(_ failures: [any Error]) -> (any Error)? {
        guard failures.count > 1 else { return failures.first }
        let known = failures.compactMap { $0 as? CIError }
        guard known.count == failures.count else { return failures.first }
        return CIError.several(known)
    }
}

/// What `relctl ci generate` did.
public enum WorkflowOutcome: String, Sendable, Encodable {
    case created, updated, unchanged
    /// `--force` replaced a hand-edited file.
    case replaced
    /// `--check` found the file current.
    case upToDate = "up-to-date"
}

/// A YAML document written line by line. Every scalar goes through `YAMLEmitter` (these helpers
/// only name the forms the workflows use); the structure (keys, indentation) is relctl's own text.
package struct YAMLLines {
    package private(set) var lines: [String] = []

    package mutating func add(_ line: String) { lines.append(line) }
    package mutating func blank() { lines.append("") }
    package var text: String { lines.joined(separator: "\n") + "\n" }

    /// Always quoted, unless it is a `${{ }}` expression relctl wrote that reads back plain.
    package static func quote(_ text: String) -> String {
        if text.hasPrefix("${{"), text.hasSuffix("}}"), YAMLEmitter.isPlainSafe(text) { return text }
        return YAMLEmitter.quoted(text)
    }

    /// Plain when YAML 1.1 and 1.2 both read it back unchanged, else quoted.
    package static func plainOrQuoted(_ text: String) -> String { YAMLEmitter.scalar(text) }

    /// Any text as one quoted scalar (a `${{ }}` expression as `quote` leaves it).
    package static func scalar(_ text: String) -> String { quote(text) }
}
