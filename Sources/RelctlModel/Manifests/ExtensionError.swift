import RelctlBasics

/// An extension that cannot be registered: a programming error in the program that adds it,
/// reported before any command runs (exit 64, as for any misuse of the command line).
public enum ExtensionError: RelctlError, Equatable {
    case duplicate(what: String, name: String)
    case badName(what: String, name: String)

    public var exitCode: RelctlExitCode { .usage }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .duplicate(let what, let name):
            return [
                Diagnostic(
                    "the \(what) `\(name)` is registered twice (a built-in has it, or two extensions add it); give the extension another"
                )
            ]
        case .badName(let what, let name):
            return [
                Diagnostic(
                    "the \(what) `\(name)` is not usable as a relctl.toml key; use lowercase letters, digits and dashes"
                )
            ]
        }
    }
}
