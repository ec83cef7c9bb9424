import Foundation
import RelctlBasics

/// Why a release's identity cannot be resolved beyond what the tag check says (`TagValidationError`,
/// `VersionError`): no version to derive a tag from, no clock for the files, or a tag that names
/// another commit than the one being packaged.
package enum IdentityError: RelctlError, CustomStringConvertible {
    /// No `--tag` and no `[[version]]` to derive one from (exit 2); `example` is a tag in the format.
    case noVersionSource(config: String, example: String)
    /// The manifest's version is not SemVer, so no tag follows from it (exit 2).
    case versionNotSemVer(path: String, line: Int?, version: String)
    /// Neither SOURCE_DATE_EPOCH nor a commit to take the time of (exit 2).
    case noClock(String)
    /// The tag exists and HEAD is another commit: its files are not the tag's (exit 1).
    case notAtTag(tag: String, tagged: String, head: String)

    package var exitCode: RelctlExitCode {
        switch self {
        case .notAtTag: return .failure
        case .noVersionSource, .versionNotSemVer, .noClock: return .badInput
        }
    }

    package var diagnostics: [Diagnostic] {
        switch self {
        case let .noVersionSource(config, example):
            return [
                Diagnostic(
                    file: config,
                    "no [[version]] entry to take the version from; pass --tag TAG (e.g. --tag \(example)) or add a [[version]] manifest"
                )
            ]
        case let .versionNotSemVer(path, line, version):
            return [
                Diagnostic(
                    file: path, line: line,
                    "version `\(version)` is not SemVer 2.0.0, so no tag can be derived from it; pass --tag TAG")
            ]
        case let .noClock(reason):
            return [Diagnostic("cannot choose the archive timestamp: \(reason)")]
        case .notAtTag(let tag, let tagged, let head):
            return [
                Diagnostic(
                    "tag \(tag) is commit \(tagged.prefix(12)) but HEAD is \(head.prefix(12)); the archives would hold HEAD's files under \(tag)'s name: `git checkout \(tag)` first, or package a new tag"
                )
            ]
        }
    }

    package var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
