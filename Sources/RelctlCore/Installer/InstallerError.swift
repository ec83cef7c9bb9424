/// Problems writing the install scripts; all are bad input (exit 2): the release folder lacks
/// what the scripts are built from.
enum InstallerError: RelctlError, CustomStringConvertible {
    /// No `manifest.json` in the folder (`path` names it).
    case noManifest(path: String)
    /// A `manifest.json` listing no tagged archive.
    case noTaggedArchives(path: String)

    var exitCode: RelctlExitCode { .badInput }

    var diagnostics: [Diagnostic] {
        switch self {
        case .noManifest(let path):
            return [Diagnostic(file: path, "not found; run `relctl package` and `relctl checksum` first")]
        case .noTaggedArchives(let path):
            return [
                Diagnostic(
                    file: path, "lists no tagged archives; run `relctl checksum` over the release's archives first")
            ]
        }
    }

    var description: String { message }
}
