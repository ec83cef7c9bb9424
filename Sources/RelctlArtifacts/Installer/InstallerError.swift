import RelctlBasics

/// Problems writing the install scripts; all are bad input (exit 2): the release folder lacks
/// what the scripts are built from.
package enum InstallerError: RelctlError, CustomStringConvertible {
    /// No `manifest.json` in the folder (`path` names it).
    case noManifest(path: String)
    /// A `manifest.json` listing no tagged archive.
    case noTaggedArchives(path: String)
    /// An archive name the installers cannot download or choose safely (a space, a glob character).
    case unsafeArchiveName(path: String, name: String, character: Unicode.Scalar)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .noManifest(let path):
            return [Diagnostic(file: path, "not found; run `relctl package` and `relctl checksum` first")]
        case let .unsafeArchiveName(path, name, character):
            let shown = character == " " ? "a space" : "`\(character.escaped(asASCII: true))`"
            return [
                Diagnostic(
                    file: path,
                    "archive `\(name)` holds \(shown): the installers fetch archives by name in a URL and choose among them in sh, where it does not survive, so an installer for it could never work; rename the project (`[project] name`) or the archive (`[archive] name`) so names hold only letters, digits and `-._+~@,=`"
                )
            ]
        case .noTaggedArchives(let path):
            return [
                Diagnostic(
                    file: path, "lists no tagged archives; run `relctl checksum` over the release's archives first")
            ]
        }
    }

    package var description: String { message }
}
