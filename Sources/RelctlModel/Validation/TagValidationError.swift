import RelctlBasics

/// Why a tag cannot be released: git would refuse its name (exit 2), or manifests and companion
/// files hold another version (exit 1, one line per file).
public enum TagValidationError: RelctlError, CustomStringConvertible {
    /// `git check-ref-format` would refuse the tag.
    case notARefName(tag: String, reason: String)
    /// The tag is longer than the folders named after it allow.
    case tooLong(tag: String, maximum: Int)
    /// Files that disagree with the tag, one diagnostic each.
    case mismatch(tag: String, problems: [Diagnostic])

    public var exitCode: RelctlExitCode {
        switch self {
        case .notARefName, .tooLong: return .badInput
        case .mismatch: return .failure
        }
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case let .notARefName(tag, reason):
            return [
                Diagnostic(
                    "`\(tag)` cannot be a git tag: \(reason); choose a tag `git check-ref-format refs/tags/TAG` accepts"
                )
            ]
        case let .tooLong(tag, maximum):
            return [
                Diagnostic(
                    "tag `\(tag.prefix(40))…` is \(tag.utf8.count) bytes long; relctl names folders after the tag and a file name holds at most 255 bytes, so a tag may have at most \(maximum): choose a shorter one"
                )
            ]
        case .mismatch(_, let problems):
            return problems
        }
    }

    public var description: String { message }
}
