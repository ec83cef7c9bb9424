import Foundation
import RelctlBasics
import RelctlModel

/// One entry of an archive as `reproduce` compares it: what a user would see after extracting
/// it (content digest, mode, time, link target), not how it was encoded.
package struct ArchiveMember: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable {
        case file, directory, symlink, hardlink, other
    }
    package var path: String
    package var kind: Kind
    package var size: Int64
    /// SHA-256 of a regular file's content.
    package var sha256: String?
    /// Permission bits in octal (`0755`).
    package var mode: String
    /// Modification time, seconds since the epoch.
    package var mtime: Int
    /// Where a symlink (or hard link) points.
    package var linkTarget: String?
    /// `uid:gid`.
    package var owner: String

    /// The fields that differ from `other`, each as `name: mine ≠ theirs` (`mine` first).
    package func differences(from other: ArchiveMember) -> [MemberField] {
        var fields: [MemberField] = []
        func compare(_ name: String, _ mine: String?, _ theirs: String?) {
            if mine != theirs {
                fields.append(MemberField(field: name, published: theirs ?? "-", rebuilt: mine ?? "-"))
            }
        }
        compare("type", kind.rawValue, other.kind.rawValue)
        compare("size", String(size), String(other.size))
        compare("sha256", sha256, other.sha256)
        compare("mode", mode, other.mode)
        compare("mtime", String(mtime), String(other.mtime))
        compare("link target", linkTarget, other.linkTarget)
        compare("owner", owner, other.owner)
        return fields
    }
}

/// One field of an archive member that differs between the published archive and the rebuild.
package struct MemberField: Codable, Sendable, Equatable {
    package var field: String
    package var published: String
    package var rebuilt: String
}

/// An archive read back (by `relctl reproduce`) that cannot be listed, or is past what is
/// compared. Exit 1: the release could not be shown reproducible, a finding about it, not a
/// mistake in what the user asked.
package enum ArchiveReadError: RelctlError, Equatable {
    /// A file that should be an archive could not be listed.
    case unreadableArchive(path: String, reason: String)
    /// An archive is past what reproduce compares (members or content): it cannot be judged.
    case archiveTooLarge(path: String, limit: String)

    package var exitCode: RelctlExitCode { .failure }

    package var diagnostics: [Diagnostic] {
        switch self {
        case .unreadableArchive(let path, let reason): return [Diagnostic(file: path, reason)]
        case .archiveTooLarge(let path, let limit):
            return [
                Diagnostic(
                    file: path,
                    "holds more than \(limit), the most `relctl reproduce` compares in one archive; it was not compared, so the release is not shown reproducible (compare its members with other tools, e.g. diffoscope)"
                )
            ]
        }
    }
}
