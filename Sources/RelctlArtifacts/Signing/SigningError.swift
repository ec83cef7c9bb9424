import Foundation
import RelctlBasics

/// Problems with keys, signatures and their files. Keys the user supplied that cannot be used
/// are bad input (exit 2); a signature that does not verify is the thing checked being wrong (exit 1).
package enum SigningError: RelctlError, Equatable {
    /// A key or key file that cannot be read or parsed.
    case badKey(source: String, reason: String)
    /// An encrypted key whose password is missing or wrong.
    case password(source: String, reason: String)
    /// Nothing to sign with: no `[sign]` key and no key in the environment.
    case noKey(config: String)
    /// A signature file that does not verify (or is malformed, or missing while a key expects it).
    case badSignature(file: String, reason: String)
    /// A file to sign or verify that is not there.
    case missingFile(path: String, reason: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .badSignature: return .failure
        case .badKey, .password, .noKey, .missingFile: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .badKey(let source, let reason): return [Diagnostic(file: source, reason)]
        case .password(let source, let reason): return [Diagnostic(file: source, reason)]
        case .noKey(let config):
            return [
                Diagnostic(
                    file: config,
                    "no signing key: set `ssh-key` and/or `minisign-key` in [sign], or put the key's text in \(SigningKeys.sshKeyVariable) / \(SigningKeys.minisignKeyVariable)"
                )
            ]
        case .badSignature(let file, let reason): return [Diagnostic(file: file, reason)]
        case .missingFile(let path, let reason): return [Diagnostic(file: path, reason)]
        }
    }
}
