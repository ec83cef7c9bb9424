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
