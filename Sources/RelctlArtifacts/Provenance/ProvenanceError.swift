import Foundation
import RelctlBasics

/// Problems writing or checking a release's provenance. Missing keys and inputs are bad input
/// (exit 2); a provenance that does not match the release is the thing checked being wrong (exit 1).
package enum ProvenanceError: RelctlError, Equatable {
    /// `[provenance] enabled` but no SSH Ed25519 key to sign with.
    case noSSHKey(config: String)
    /// What the statement is made from is not there (manifest.json, the commit's time).
    case missingInput(path: String, reason: String)
    /// The provenance file does not verify or does not describe this release; one line per finding.
    case mismatch(file: String, findings: [String])

    package var exitCode: RelctlExitCode {
        switch self {
        case .mismatch: return .failure
        case .noSSHKey, .missingInput: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .noSSHKey(let config):
            return [
                Diagnostic(
                    file: config,
                    "[provenance] enabled needs an SSH Ed25519 key to sign with: set `[sign] ssh-key` or put the key's text in \(SigningKeys.sshKeyVariable)"
                )
            ]
        case .missingInput(let path, let reason): return [Diagnostic(file: path, reason)]
        case .mismatch(let file, let findings): return findings.map { Diagnostic(file: file, $0) }
        }
    }
}
