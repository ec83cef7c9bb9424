import RelctlBasics

/// Why `bump --write` refuses a version before writing anything: the version already shipped
/// under some spelling of the tag format (exit 1), or a manifest holds text no version scheme
/// reads, so relctl cannot tell whether the new version would lower it (exit 2).
public enum VersionWriteError: RelctlError, CustomStringConvertible {
    case alreadyReleased(version: String, tag: String)
    case unorderable(path: String, line: Int?, found: String)

    public var exitCode: RelctlExitCode {
        switch self {
        case .alreadyReleased: return .failure
        case .unorderable: return .badInput
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .alreadyReleased(version, tag):
            return [
                Diagnostic(
                    "version \(version) was released already (tag `\(tag)`); nothing was written: choose a version no tag names (`relctl bump` prints one)"
                )
            ]
        case let .unorderable(path, line, found):
            return [
                Diagnostic(
                    file: path, line: line,
                    "holds `\(found)`, which no version scheme reads (SemVer, calendar, PEP 440), so relctl cannot tell whether the new version would lower it; nothing was written: set a version by hand"
                )
            ]
        }
    }

    public var description: String { message }
}
