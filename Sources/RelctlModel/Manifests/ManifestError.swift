import Foundation
import RelctlBasics

/// Problems reading a manifest; all are bad input (exit 2).
package enum ManifestError: RelctlError, CustomStringConvertible {
    case missing(path: String)
    case noVersion(path: String, hint: String)
    case dynamicVersion(path: String)
    case invalid(path: String, line: Int?, reason: String)
    case unknownKind(String)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .missing(let path):
            return [
                Diagnostic(file: path, "manifest not found; fix `path` in its [[version]] entry or create the file")
            ]
        case let .noVersion(path, hint):
            return [Diagnostic(file: path, "no version found: \(hint)")]
        case .dynamicVersion(let path):
            return [
                Diagnostic(
                    file: path,
                    "the version is dynamic (`dynamic = [\"version\"]`), so this file holds none to compare; the tag is then the source of truth: point [[version]] at the file your build backend reads it from, with kind `regex` and a `pattern`, or kind `plain` for a VERSION file"
                )
            ]
        case let .invalid(path, line, reason):
            return [Diagnostic(file: path, line: line, reason)]
        case .unknownKind(let kind):
            let known = ManifestReaders.knownKinds
            return [
                Diagnostic(
                    "unknown manifest kind `\(kind)`\(Suggestion.hint(for: kind, in: known)); known kinds: \(known.joined(separator: ", "))"
                )
            ]
        }
    }

    package var description: String { message }
}

/// An extension that cannot be registered: a programming error in the program that adds it,
/// reported before any command runs (exit 64, as for any misuse of the command line).
public enum ExtensionError: RelctlError, Equatable {
    case duplicate(what: String, name: String)
    case badName(what: String, name: String)

    public var exitCode: RelctlExitCode { .usage }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .duplicate(let what, let name):
            return [
                Diagnostic(
                    "the \(what) `\(name)` is registered twice (a built-in has it, or two extensions add it); give the extension another"
                )
            ]
        case .badName(let what, let name):
            return [
                Diagnostic(
                    "the \(what) `\(name)` is not usable as a relctl.toml key; use lowercase letters, digits and dashes"
                )
            ]
        }
    }
}
