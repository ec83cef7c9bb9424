import Synchronization

/// The one place findings are collected: errors with the exit code each deserves, and warnings.
///
/// A command has one engine for its whole run (`Console.diagnostics`): warnings reach the
/// terminal as they happen and the `--json` document at the end. A check that wants to report
/// every problem at once before stopping (reading relctl.toml, a release's preflight, a train's
/// workspace) keeps its own engine and throws `problems()` at the end, so the user fixes all of
/// them in one go. `ProblemList` is that thrown view; `PreflightReport` and `TableReader` hold an
/// engine rather than their own lists.
public final class DiagnosticsEngine: Sendable {
    private struct State {
        var diagnostics: [Diagnostic] = []
        var exitCode: RelctlExitCode = .success
    }

    private let state = Mutex(State())

    package init() {}

    /// Records a finding as it is: an error raises the exit code to `exitCode`, a warning does not.
    package func record(_ diagnostic: Diagnostic, exitCode: RelctlExitCode = .failure) {
        state.withLock { state in
            state.diagnostics.append(diagnostic)
            if diagnostic.severity == .error { state.exitCode = max(state.exitCode, exitCode) }
        }
    }

    package func error(_ exitCode: RelctlExitCode = .failure, file: String? = nil, line: Int? = nil, _ message: String) {
        record(Diagnostic(file: file, line: line, message), exitCode: exitCode)
    }

    /// Every diagnostic an error carries, at the error's own exit code.
    package func error(_ error: any RelctlError) {
        for diagnostic in error.diagnostics { record(diagnostic, exitCode: error.exitCode) }
        // An error without diagnostics still stops the check.
        if error.diagnostics.isEmpty { record(Diagnostic("\(error)"), exitCode: error.exitCode) }
    }

    package func errors(_ exitCode: RelctlExitCode, _ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics { record(diagnostic, exitCode: exitCode) }
    }

    package func warning(file: String? = nil, line: Int? = nil, _ message: String) {
        record(Diagnostic(file: file, line: line, message, severity: .warning))
    }

    /// Every error so far, in the order they were recorded.
    public var errors: [Diagnostic] {
        state.withLock { $0.diagnostics.filter { $0.severity == .error } }
    }

    /// Every warning so far, in the order they were emitted.
    public var warnings: [Diagnostic] {
        state.withLock { $0.diagnostics.filter { $0.severity == .warning } }
    }

    public var hasErrors: Bool {
        state.withLock { $0.diagnostics.contains { $0.severity == .error } }
    }

    /// The most severe exit code among the errors (`.success` when there are none).
    public var exitCode: RelctlExitCode { state.withLock { $0.exitCode } }

    /// The errors as one thrown value, or nil when there are none.
    package func problems() -> ProblemList? {
        state.withLock { state in
            let errors = state.diagnostics.filter { $0.severity == .error }
            return errors.isEmpty ? nil : ProblemList(exitCode: state.exitCode, diagnostics: errors)
        }
    }

    /// Throws the errors collected so far, if any.
    package func throwIfErrors() throws(ProblemList) {
        if let problems = problems() { throw problems }
    }
}
