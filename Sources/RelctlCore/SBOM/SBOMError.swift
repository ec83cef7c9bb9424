/// A lockfile the SBOM reads that cannot be parsed: bad input (exit 2) naming it.
struct SBOMError: RelctlError {
    var file: String
    var reason: String

    init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    var exitCode: RelctlExitCode { .badInput }
    var diagnostics: [Diagnostic] {
        [Diagnostic(file: file, "\(reason); fix the lockfile or set `[sbom] enabled = false`")]
    }
}
