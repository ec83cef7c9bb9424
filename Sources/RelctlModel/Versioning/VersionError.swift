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
