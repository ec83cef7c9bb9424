import RelctlBasics

/// Problems turning `[[target]]` entries into the build matrix; all are bad input (exit 2).
public enum MatrixError: RelctlError, CustomStringConvertible {
    /// A triple relctl has no defaults for, without `runner` or `format`; `missing` names the keys.
    case unknownTriple(triple: String, missing: String, line: Int?)
    /// No `[[target]]` at all, where an empty matrix cannot work (GitHub's).
    case noTargets(config: String)

    public var exitCode: RelctlExitCode { .badInput }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .unknownTriple(triple, missing, line):
            return [
                Diagnostic(
                    line: line,
                    "unknown target triple `\(triple)`: relctl cannot choose its defaults; give \(missing) in its [[target]] entry, or fix the triple (e.g. `x86_64-unknown-linux-gnu`)"
                )
            ]
        case .noTargets(let config):
            return [Diagnostic(file: config, "no [[target]] entries; \(TargetResolver.addTargetHint)")]
        }
    }

    public var description: String { message }
}
