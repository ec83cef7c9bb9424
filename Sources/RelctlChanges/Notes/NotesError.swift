import RelctlBasics

/// Problems building release notes and bumping the version in manifests. Bad input (exit 2),
/// except a manifest already ahead of the new version, which is a refusal (exit 1).
public enum NotesError: RelctlError, CustomStringConvertible {
    /// `[notes] template` names no file.
    case templateNotFound(path: String)
    /// The Mustache parser refused the template.
    case invalidTemplate(path: String, line: Int, column: Int, reason: String, text: String)
    /// `--output` or `--changelog` names a folder.
    case outputIsFolder(path: String, flag: String)
    /// The notes cannot be written to `--output`.
    case cannotWrite(path: String)
    /// A PEP 440 manifest cannot spell the version.
    case noPEP440Spelling(path: String, version: String, reason: String)
    /// A manifest holds a later version than the one to write.
    case wouldLower(path: String, line: Int?, found: String, version: String)
    /// The reader found the version but not its line.
    case versionLineUnknown(path: String, found: String)
    /// The manifest to write resolves outside the repository; `reason` says where.
    case writeOutsideRepository(path: String, reason: String)
    /// The line recorded for the version no longer holds it.
    case versionNotOnLine(path: String, line: Int, old: String)

    /// The changelog has a section for this release that relctl did not write (or that was edited since).
    case changelogSectionNotOurs(path: String, line: Int, heading: String)

    public var exitCode: RelctlExitCode {
        switch self {
        case .wouldLower, .changelogSectionNotOurs: return .failure
        default: return .badInput
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .changelogSectionNotOurs(path, line, heading):
            return [
                Diagnostic(
                    file: path, line: line,
                    "`\(heading)` is a section relctl did not write (or one edited since); it is left as it is. Edit it by hand, or pass --force to replace it with the generated notes"
                )
            ]
        case let .writeOutsideRepository(path, reason):
            return [Diagnostic(file: path, reason)]
        case .templateNotFound(let path):
            return [Diagnostic(file: path, "notes template not found; fix `template` in [notes] or create the file")]
        case let .invalidTemplate(path, line, column, reason, text):
            return [
                Diagnostic(
                    file: path, line: line, "invalid Mustache template (\(reason)) at column \(column): `\(text)`")
            ]
        case let .outputIsFolder(path, flag):
            return [
                Diagnostic(
                    file: path,
                    "is a folder; \(flag) takes a file path, e.g. \(path.hasSuffix("/") ? path : path + "/")\(flag == "--output" ? "RELEASE_NOTES.md" : "CHANGELOG.md")"
                )
            ]
        case .cannotWrite(let path):
            return [Diagnostic(file: path, "cannot write here; check the path and its permissions")]
        case let .noPEP440Spelling(path, version, reason):
            return [Diagnostic(file: path, "version \(version) cannot be written here: \(reason)")]
        case let .wouldLower(path, line, found, version):
            return [
                Diagnostic(
                    file: path, line: line,
                    "holds \(found), above \(version); relctl never lowers a version, so set it by hand if you really mean to"
                )
            ]
        case let .versionLineUnknown(path, found):
            return [Diagnostic(file: path, "cannot tell which line holds the version `\(found)`; edit it by hand")]
        case let .versionNotOnLine(path, line, old):
            return [Diagnostic(file: path, line: line, "version `\(old)` not found on this line; edit it by hand")]
        }
    }

    public var description: String { message }
}
