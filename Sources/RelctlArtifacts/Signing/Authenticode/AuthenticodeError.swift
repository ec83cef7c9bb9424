import Foundation
import RelctlBasics

/// Problems signing Windows executables. A key that cannot be used is bad input (exit 2, found
/// before anything is written); an executable that cannot be signed or a time-stamping authority
/// that does not answer is a failed step (exit 1).
package enum AuthenticodeError: RelctlError, Equatable {
    /// The PKCS#12 file is missing, unreadable, not one relctl reads, or lacks the certificate.
    case keyUnreadable(source: String, reason: String)
    /// The PKCS#12 file does not open with the password given (or with none).
    case wrongPassword(source: String, passwordSet: Bool)
    /// A `.exe` of a Windows target that is no PE image relctl can sign.
    case notSignable(file: String, target: String, reason: String)
    /// The time-stamping authority failed or answered something that is no timestamp.
    case timestamp(url: String, reason: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .keyUnreadable, .wrongPassword: return .badInput
        case .notSignable, .timestamp: return .failure
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .keyUnreadable(let source, let reason):
            return [Diagnostic(file: source, "Windows signing key: \(reason)")]
        case .wrongPassword(let source, let passwordSet):
            let hint =
                passwordSet
                ? "the password in \(AuthenticodeKey.passwordVariable) does not open it; set the password the file was exported with"
                : "it needs a password: set \(AuthenticodeKey.passwordVariable) to the password the file was exported with"
            return [Diagnostic(file: source, "Windows signing key: \(hint)")]
        case .notSignable(let file, let target, let reason):
            return [
                Diagnostic(
                    file: file,
                    "cannot Authenticode-sign this executable of \(target): \(reason); build a Windows PE executable for it, or remove `[windows] signing-key`"
                )
            ]
        case .timestamp(let url, let reason):
            return [
                Diagnostic(
                    file: nil,
                    "timestamp from \(url) failed: \(reason); check `[windows] timestamp-url`, or remove it to sign without a timestamp"
                )
            ]
        }
    }
}
