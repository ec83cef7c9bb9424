import Synchronization

/// Collects the warnings a command emits, wherever in the core they arise, so they reach both
/// the terminal (as they happen) and the command's `--json` document (at the end). Errors stop
/// the command and travel as `RelctlError`s; warnings go through here.
public final class DiagnosticsEngine: Sendable {
    private let recorded = Mutex<[Diagnostic]>([])

    package init() {}

    package func record(_ diagnostic: Diagnostic) {
        recorded.withLock { $0.append(diagnostic) }
    }

    /// Every warning so far, in the order they were emitted.
    public var warnings: [Diagnostic] {
        recorded.withLock { $0.filter { $0.severity == .warning } }
    }
}
