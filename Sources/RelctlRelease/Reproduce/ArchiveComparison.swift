import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlModel

/// Member-by-member comparison of two archives (the published one and the rebuild's), naming
/// every member that differs (with the fields that differ) or exists on one side only.
struct ArchiveComparison: Codable, Sendable, Equatable {
    /// One member that is not the same in both archives.
    struct Member: Codable, Sendable, Equatable {
        enum Status: String, Codable, Sendable {
            case differs
            case onlyPublished = "only-published"
            case onlyRebuilt = "only-rebuilt"
        }
        var path: String
        var status: Status
        var fields: [MemberField] = []

        var summary: String {
            switch status {
            case .differs:
                return "\(path): "
                    + fields.map { "\($0.field) published \(short($0.published)), rebuilt \(short($0.rebuilt))" }
                    .joined(separator: "; ")
            case .onlyPublished: return "\(path): only in the published archive"
            case .onlyRebuilt: return "\(path): only in the rebuild"
            }
        }

        /// Digests shortened for the text report (the JSON keeps them whole).
        private func short(_ value: String) -> String { value.count == 64 ? String(value.prefix(12)) + "…" : value }
    }

    var members: [Member]
    /// Why the archives differ when no member does (order, headers or compression).
    var note: String?

    static func compare(published: URL, rebuilt: URL, name: String) throws -> ArchiveComparison {
        let old = try ArchiveReader.members(of: published, shown: "published \(name)")
        let new = try ArchiveReader.members(of: rebuilt, shown: "rebuilt \(name)")
        var oldByPath: [String: ArchiveMember] = [:]
        for member in old where oldByPath[member.path] == nil { oldByPath[member.path] = member }
        var newByPath: [String: ArchiveMember] = [:]
        for member in new where newByPath[member.path] == nil { newByPath[member.path] = member }

        var members: [Member] = []
        // A set, not a search of `members`: with every member differing the search was quadratic.
        var differing: Set<String> = []
        for member in old {
            guard let mine = newByPath[member.path] else {
                members.append(Member(path: member.path, status: .onlyPublished))
                continue
            }
            let fields = mine.differences(from: member)
            if !fields.isEmpty, differing.insert(member.path).inserted {
                members.append(Member(path: member.path, status: .differs, fields: fields))
            }
        }
        for member in new where oldByPath[member.path] == nil {
            members.append(Member(path: member.path, status: .onlyRebuilt))
        }
        var note: String?
        if members.isEmpty {
            note =
                old.map(\.path) != new.map(\.path)
                ? "the same members in another order"
                : old.count != new.count
                    ? "a member is repeated in one archive"
                    : "every member is identical; the archives differ in their encoding (headers or compression)"
        }
        return ArchiveComparison(members: members, note: note)
    }
}
