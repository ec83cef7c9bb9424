import RelctlBasics

/// Problems writing a deb or rpm: bad input (exit 2) when the config or the inputs cannot make a
/// valid package, a failure (exit 1) when writing did.
package enum LinuxPackageError: RelctlError, CustomStringConvertible {
    /// A path longer than ustar can hold.
    case pathTooLong(path: String)
    /// A `[[package]] format` id that is not registered.
    case unknownFormat(id: String, known: [String])
    /// The version cannot be spelled for the package format.
    case badVersion(version: String, reason: String)
    /// No `[[package]]` table, or no Linux target to package.
    case nothingToPackage(config: String, reason: String)
    /// A binary the build should have made is not there.
    case missingBinary(binary: String, path: String, target: String)
    /// A `--target` that is not a configured Linux target.
    case unknownTarget(target: String, known: [String])
    /// An rpm whose payload passes rpm's 32-bit size fields.
    case tooLarge(package: String, size: Int)
    /// A file the package needs could not be read.
    case unreadable(path: String, reason: String)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .pathTooLong(let path):
            return [
                Diagnostic("`\(path)` is too long for a package's tar member (name 100, folder 155 bytes); shorten it")
            ]
        case .unknownFormat(let id, let known):
            return [Diagnostic("unknown package format `\(id)`; known formats: \(known.joined(separator: ", "))")]
        case .badVersion(let version, let reason):
            return [
                Diagnostic("version `\(version)` \(reason); Linux packages need a version Debian and RPM accept")
            ]
        case .nothingToPackage(let config, let reason):
            return [Diagnostic(file: config, reason)]
        case .missingBinary(let binary, let path, let target):
            return [
                Diagnostic(
                    file: path,
                    "binary `\(binary)` for \(target) not found; run `relctl build --target \(target)` first")
            ]
        case .unknownTarget(let target, let known):
            return [
                Diagnostic(
                    "`\(target)` is not a Linux target of this project; Linux targets: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
                )
            ]
        case .tooLarge(let package, let size):
            return [
                Diagnostic(
                    "\(package): the payload is \(ByteCount.format(Int64(size))), over the 4 GiB rpm's 32-bit size fields hold; ship smaller binaries"
                )
            ]
        case .unreadable(let path, let reason):
            return [Diagnostic(file: path, "cannot be read: \(reason)")]
        }
    }

    package var description: String { message }
}
