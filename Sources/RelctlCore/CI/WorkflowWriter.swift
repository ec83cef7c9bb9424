import Foundation
import RelctlBasics

/// Writes, checks or force-replaces the release workflow following the generated-file rules.
public enum WorkflowWriter {
    /// `check`: compare only, never write. `force`: replace even a hand-edited file.
    public static func generate(
        config: RelctlConfig, check: Bool, force: Bool
    ) throws -> (path: String, outcome: WorkflowOutcome) {
        let url = config.root.appendingPathComponent(config.ci.workflow)
        let shown = config.ci.workflow
        let generated = ReleaseWorkflow.render(config: config)
        let existing = FileSystem.contents(of: url).map { String(decoding: $0, as: UTF8.self) }
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
}
