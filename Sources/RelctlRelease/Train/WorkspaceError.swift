import RelctlBasics
import RelctlModel

/// Problems with `relctl-workspace.toml`; all are bad input (exit 2).
enum WorkspaceError: RelctlError, CustomStringConvertible {
    /// No workspace file at `path`.
    case notFound(path: String)
    /// `after` makes a cycle, so no order releases them all; `cycle` lists the names, first repeated last.
    case cycle(path: String, cycle: [String])

    var exitCode: RelctlExitCode { .badInput }

    var diagnostics: [Diagnostic] {
        switch self {
        case .notFound(let path):
            return [
                Diagnostic(
                    file: path,
                    "workspace file not found; create it with one [[repo]] (name, path, after) per repository, or pass --workspace PATH"
                )
            ]
        case let .cycle(path, cycle):
            return [
                Diagnostic(
                    file: path,
                    "`after` forms a cycle: \(cycle.joined(separator: " → ")); no order can release them, remove one of these dependencies"
                )
            ]
        }
    }

    var description: String { message }
}
