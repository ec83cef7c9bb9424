import Foundation

/// What `relctl ci generate` did.
public enum WorkflowOutcome: String, Sendable, Encodable {
    case created, updated, unchanged
    /// `--force` replaced a hand-edited file.
    case replaced
    /// `--check` found the file current.
    case upToDate = "up-to-date"
}

/// Problems in `relctl ci generate` (all exit 1: the file checked is wrong).
public enum CIError: RelctlError, CustomStringConvertible {
    case handEdited(path: String)
    case outOfDate(path: String, state: GeneratedFile.State)

    public var exitCode: ExitCode { .failure }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .handEdited(let path):
            return [Diagnostic(file: path, "edited by hand since relctl generated it, so it was left alone; move your changes into relctl.toml ([ci] setup, [[target]]) and run `relctl ci generate --force` to replace it")]
        case let .outOfDate(path, state):
            switch state {
            case .missing:
                return [Diagnostic(file: path, "does not exist; run `relctl ci generate` to create it")]
            case .handEdited:
                return [Diagnostic(file: path, "differs from what relctl would generate and was edited by hand; run `relctl ci generate --force` to replace it (move your changes into relctl.toml first)")]
            default:
                return [Diagnostic(file: path, "is out of date with relctl.toml; run `relctl ci generate` and commit the result")]
            }
        }
    }

    public var description: String { message }
}

/// Writes, checks or force-replaces the release workflow following the generated-file rules.
public enum WorkflowWriter {
    /// `check`: compare only, never write. `force`: replace even a hand-edited file.
    public static func generate(config: RelctlConfig, check: Bool, force: Bool) throws -> (path: String, outcome: WorkflowOutcome) {
        let url = config.ci.workflow.hasPrefix("/") ? URL(fileURLWithPath: config.ci.workflow) : config.root.appendingPathComponent(config.ci.workflow)
        let shown = config.ci.workflow
        let generated = ReleaseWorkflow.render(config: config)
        let existing = FileManager.default.contents(atPath: url.path).map { String(decoding: $0, as: UTF8.self) }
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
        case .handEdited:
            guard force else { throw CIError.handEdited(path: shown) }
            outcome = .replaced
        }
        try AtomicFile.write(generated, to: url)
        return (shown, outcome)
    }
}
