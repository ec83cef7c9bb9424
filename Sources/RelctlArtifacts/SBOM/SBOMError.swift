import RelctlBasics

/// A lockfile the SBOM reads that cannot be parsed: bad input (exit 2) naming it.
package struct SBOMError: RelctlError {
    package var file: String
    package var reason: String

    package init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    package var exitCode: RelctlExitCode { .badInput }
    package var diagnostics: [Diagnostic] {
        [Diagnostic(file: file, "\(reason); fix the lockfile or set `[sbom] enabled = false`")]
    }
}
