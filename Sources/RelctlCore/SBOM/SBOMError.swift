/// A lockfile the SBOM reads that cannot be parsed: bad input (exit 2) naming it.
public struct SBOMError: RelctlError {
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var exitCode: RelctlExitCode { .badInput }
    public var diagnostics: [Diagnostic] {
        [Diagnostic(file: file, "\(reason); fix the lockfile or set `[sbom] enabled = false`")]
    }
}
