import Foundation
import RelctlBasics
import RelctlCore

/// One entry of an archive as `reproduce` compares it: what a user would see after extracting
/// it (content digest, mode, time, link target), not how it was encoded.
struct ArchiveMember: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable {
        case file, directory, symlink, hardlink, other
    }
    var path: String
    var kind: Kind
    var size: Int64
    /// SHA-256 of a regular file's content.
    var sha256: String?
    /// Permission bits in octal (`0755`).
    var mode: String
    /// Modification time, seconds since the epoch.
    var mtime: Int
    /// Where a symlink (or hard link) points.
    var linkTarget: String?
    /// `uid:gid`.
    var owner: String

    /// The fields that differ from `other`, each as `name: mine ≠ theirs` (`mine` first).
    func differences(from other: ArchiveMember) -> [MemberField] {
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
struct MemberField: Codable, Sendable, Equatable {
    var field: String
    var published: String
    var rebuilt: String
}
