import RelctlBasics

package enum VersionError: RelctlError, CustomStringConvertible, Equatable {
    case malformed(String, String)
    case malformedTag(tag: String, format: String, reason: String)
    /// A tag format without exactly one `{version}`.
    case formatVersionCount(format: String)
    /// A tag format with a placeholder other than `{version}` and `{project}`.
    case formatPlaceholder(format: String, near: String)
    /// A tag format whose tags git would refuse.
    case formatNotARefName(format: String, sample: String, reason: String)

    package var exitCode: RelctlExitCode { .badInput }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .malformed(text, why):
            return [Diagnostic("`\(text)` is not a valid SemVer 2.0.0 version: \(why)")]
        case let .malformedTag(tag, format, reason):
            return [Diagnostic("tag `\(tag)` is malformed for tag format `\(format)`: \(reason)")]
        case .formatVersionCount(let format):
            return [
                Diagnostic("tag format `\(format)` must contain `{version}` exactly once (for example `v{version}`)")
            ]
        case let .formatPlaceholder(format, near):
            return [
                Diagnostic(
                    "tag format `\(format)` has an unknown placeholder near `\(near)`; only `{version}` and `{project}` are allowed"
                )
            ]
        case let .formatNotARefName(format, sample, reason):
            return [
                Diagnostic(
                    "tag format `\(format)` gives tags git cannot create (`\(sample)`: \(reason)); use letters, digits, `-`, `_`, `.` and `/` around `{version}`"
                )
            ]
        }
    }

    package var description: String { message }
}

/// Why `bump --write` refuses a version before writing anything: the version already shipped
/// under some spelling of the tag format (exit 1), or a manifest holds text no version scheme
/// reads, so relctl cannot tell whether the new version would lower it (exit 2).
public enum VersionWriteError: RelctlError, CustomStringConvertible {
    case alreadyReleased(version: String, tag: String)
    case unorderable(path: String, line: Int?, found: String)
    /// A Cargo manifest cannot hold the version: Cargo reads each of major, minor and patch as an
    /// unsigned 64-bit number, so a component above 18446744073709551615 breaks every build.
    case beyondCargo(path: String, line: Int?, version: String)
    /// A version tuple (`version_info = (26, 1, 0)`) has no place for the version: a prerelease in
    /// a tuple of numbers only, a `.dev` or `.post` part, more numbers than it holds.
    case tupleCannotHold(path: String, line: Int?, tuple: String, version: String)

    public var exitCode: RelctlExitCode {
        switch self {
        case .alreadyReleased: return .failure
        case .unorderable, .beyondCargo, .tupleCannotHold: return .badInput
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
        case let .beyondCargo(path, line, version):
            return [
                Diagnostic(
                    file: path, line: line,
                    "cannot hold version \(version): Cargo reads major, minor and patch as numbers up to 18446744073709551615 (64 bits), so every cargo build would refuse it; nothing was written: set a smaller version (`relctl bump --set`)"
                )
            ]
        case let .tupleCannotHold(path, line, tuple, version):
            return [
                Diagnostic(
                    file: path, line: line,
                    "keeps its version as the tuple `\(tuple)`, which cannot spell \(version) (a tuple of numbers holds a final release, one with a release level such as \"alpha\" a prerelease too, neither a .dev or .post part); nothing was written: choose a version the tuple can hold, or write it by hand"
                )
            ]
        }
    }

    public var description: String { message }
}
