import Foundation
import RelctlBasics

/// The outcome of checking a tag against every configured manifest (`relctl validate-tag`).
public struct TagValidation: Sendable, Encodable {
    public struct Source: Sendable, Encodable, Equatable {
        /// The manifest as configured in `[[version]] path`.
        package var path: String
        package var kind: String
        package var version: String
        package var matches: Bool
        /// Where the version text really is (a Cargo workspace root for an inherited version) and
        /// its line: the place a user has to edit, so mismatch messages point there.
        package var foundIn: String
        package var line: Int?
        /// Why the tag cannot match this manifest whatever it holds (a SemVer prerelease with no
        /// PEP 440 meaning), for the message.
        package var note: String?

        package enum CodingKeys: String, CodingKey { case path, kind, version, matches, note }
    }

    package var tag: String
    public var version: String
    public var sources: [Source]
    /// Lock and pin entries that do not follow the tag's version (see `Companion`).
    package var staleCompanions: [StaleCompanion] = []
    /// How many companions were compared (stale or not), for the summary line.
    public var companionCount = 0

    package enum CodingKeys: String, CodingKey {
        case ok, tag, version, sources, staleCompanions = "stale-companions"
    }

    /// `ok` first-class, as in every other `--json` document: false on a mismatch (exit 1).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mismatchError == nil, forKey: .ok)
        try container.encode(tag, forKey: .tag)
        try container.encode(version, forKey: .version)
        try container.encode(sources, forKey: .sources)
        try container.encode(staleCompanions, forKey: .staleCompanions)
    }

    /// The mismatch error (exit 1) naming each file and the version it holds, or nil when all match.
    public var mismatchError: TagValidationError? {
        let wrong = sources.filter { !$0.matches }
        guard !wrong.isEmpty || !staleCompanions.isEmpty else { return nil }
        let problems: [Diagnostic] =
            wrong.map {
                let inherited = $0.foundIn == $0.path ? "" : "(inherited by \($0.path)) "
                if let note = $0.note {
                    return Diagnostic(
                        file: $0.foundIn, line: $0.line,
                        "\(inherited)holds version \($0.version), which tag \(tag) cannot match: \(note)")
                }
                return Diagnostic(
                    file: $0.foundIn, line: $0.line,
                    "\(inherited)holds version \($0.version), but tag \(tag) says \(version); update the manifest (or `relctl bump --write`) or tag the version it holds"
                )
            } + staleCompanions.map(\.diagnostic)
        return .mismatch(tag: tag, problems: problems)
    }
}

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
