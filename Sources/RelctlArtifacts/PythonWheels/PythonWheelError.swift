import RelctlBasics

/// Problems making a wheel: bad input (exit 2) when the config, the version or a binary cannot
/// make one; a failure (exit 1) when writing did.
package enum PythonWheelError: RelctlError, CustomStringConvertible {
    /// The release version has no PEP 440 spelling PyPI accepts.
    case badVersion(version: String, reason: String)
    /// A binary the build should have made is not there.
    case missingBinary(binary: String, path: String, target: String)
    /// A file the wheel needs could not be read.
    case unreadable(path: String, reason: String)
    /// A METADATA value that would break the header format (a line break in a one-line field).
    case badMetadata(config: String, reason: String)
    /// The wheel could not be written.
    case writeFailed(path: String, reason: String)

    package var exitCode: RelctlExitCode {
        if case .writeFailed = self { return .failure }
        return .badInput
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .badVersion(let version, let reason):
            return [Diagnostic("version `\(version)` \(reason); [pypi] wheels need a PEP 440 version PyPI accepts")]
        case .missingBinary(let binary, let path, let target):
            return [
                Diagnostic(
                    file: path,
                    "binary `\(binary)` for \(target) not found; run `relctl build --target \(target)` first")
            ]
        case .unreadable(let path, let reason):
            return [Diagnostic(file: path, "cannot be read: \(reason)")]
        case .badMetadata(let config, let reason):
            return [Diagnostic(file: config, reason)]
        case .writeFailed(let path, let reason):
            return [Diagnostic(file: path, "the wheel could not be written: \(reason)")]
        }
    }

    package var description: String { message }
}
