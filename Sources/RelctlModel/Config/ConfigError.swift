import RelctlBasics

/// Problems with `relctl.toml` and the TOML files and templates it names; all are bad input (exit 2).
package enum ConfigError: RelctlError, CustomStringConvertible {
    /// No config file where one was expected.
    case notFound(path: String)
    /// `relctl init` found a config already there.
    case alreadyExists(path: String)
    /// The TOML parser refused the text.
    case syntax(path: String, line: Int?, message: String)
    /// A TOML path names a folder.
    case isDirectory(path: String)
    /// A TOML file missing (`exists` false) or unreadable.
    case unreadable(path: String, exists: Bool)
    /// A template whose braces do not scan.
    case templateSyntax(template: String, problem: String)
    /// A known placeholder used where it has no value.
    case placeholderNotAllowed(name: String, allowed: [String])
    /// A placeholder relctl does not know.
    case unknownPlaceholder(name: String, template: String, allowed: [String])

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .notFound(let path):
            return [
                Diagnostic(file: path, "config file not found; run `relctl init` to create one, or pass --config PATH")
            ]
        case .alreadyExists(let path):
            return [
                Diagnostic(file: path, "already exists; relctl init never overwrites it (edit it, or remove it first)")
            ]
        case let .syntax(path, line, message):
            return [Diagnostic(file: path, line: line, "TOML syntax error: \(message)")]
        case .isDirectory(let path):
            return [Diagnostic(file: path, "is a directory, not a TOML file; name the file itself")]
        case let .unreadable(path, exists):
            return [Diagnostic(file: path, !exists ? "file not found" : "cannot be read; check its permissions")]
        case let .templateSyntax(template, problem):
            return [Diagnostic("`\(template)`: \(problem)")]
        case let .placeholderNotAllowed(name, allowed):
            return [
                Diagnostic(
                    "placeholder `{\(name)}` cannot be used here; allowed: \(allowed.map { "{\($0)}" }.joined(separator: " "))"
                )
            ]
        case let .unknownPlaceholder(name, template, allowed):
            let hint =
                Suggestion.closest(to: name, in: allowed).map { "; did you mean `{\($0)}`?" }
                ?? "; known: \(allowed.map { "{\($0)}" }.joined(separator: " "))"
            return [Diagnostic("unknown placeholder `{\(name)}` in `\(template)`\(hint)")]
        }
    }

    package var description: String { message }
}
