import RelctlBasics

/// Problems making or signing an MSI: bad input (exit 2) when the config, the environment (a
/// missing tool, a key) or the inputs cannot make one; a failure (exit 1) when a tool did.
package enum MSIError: RelctlError, CustomStringConvertible {
    /// A program relctl drives is not on PATH.
    case toolMissing(tool: String, why: String)
    /// A program relctl drove exited non-zero.
    case toolFailed(tool: String, status: Int32, output: String)
    /// The version cannot be an MSI ProductVersion.
    case badVersion(version: String, reason: String)
    /// A name that cannot go into the installer (a file name Windows refuses, a WiX variable).
    case badName(what: String, value: String, reason: String)
    /// A binary the build should have made is not there.
    case missingBinary(binary: String, path: String, target: String)
    /// wixl's output is not what relctl knows how to pin.
    case unpinnable(path: String, reason: String)
    /// The signing key cannot be read.
    case signingKey(source: String, reason: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .toolFailed, .missingBinary, .unpinnable: return .failure
        default: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .toolMissing(tool, why):
            return [
                Diagnostic(
                    "`\(tool)` is not on PATH; \(why). Install it (Debian/Ubuntu: `apt-get install \(MSITools.debianPackage(of: tool))`; Fedora: `dnf install \(MSITools.fedoraPackage(of: tool))`) or turn the setting off"
                )
            ]
        case let .toolFailed(tool, status, output):
            return [Diagnostic("`\(tool)` failed (exit \(status)): \(output.isEmpty ? "no output" : output)")]
        case let .badVersion(version, reason):
            return [Diagnostic("version `\(version)` \(reason); an MSI's ProductVersion is MAJOR.MINOR.BUILD")]
        case let .badName(what, value, reason):
            return [Diagnostic("\(what) \(QuotedString.basic(value)) cannot go into an MSI: \(reason)")]
        case let .missingBinary(binary, path, target):
            return [
                Diagnostic(
                    file: path,
                    "binary `\(binary)` for \(target) not found; run `relctl build --target \(target)` first")
            ]
        case let .unpinnable(path, reason):
            return [
                Diagnostic(
                    file: path,
                    "the MSI wixl wrote cannot be made reproducible (\(reason)); report this with `wixl --version`")
            ]
        case let .signingKey(source, reason):
            return [Diagnostic(file: source, "the Windows signing key cannot be used: \(reason)")]
        }
    }

    package var description: String { message }
}
