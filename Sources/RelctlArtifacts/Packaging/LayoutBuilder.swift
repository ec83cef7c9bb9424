import Foundation
import RelctlBasics

/// Collects entries, adds their parent folders, and refuses two sources for one path.
package struct LayoutBuilder {
    /// The entries in the order added, and where each path is among them: the table that finds a
    /// collision holds a small index, not the entry (100,000 files: a dictionary of whole entries
    /// held ~14 MB and twice that while it grew; issue 31).
    private var entries: [ArchiveEntry] = []
    private var indexByPath: [String: Int32] = [:]

    package mutating func add(_ entry: ArchiveEntry) throws {
        guard !entry.path.isEmpty else {
            throw PackagingError.unsafePath(
                path: entry.origin, reason: "maps onto the archive folder itself; give it a name with `to`")
        }
        try ArchivePath.checkName(entry.path)
        if let index = indexByPath[entry.path] {
            let existing = entries[Int(index)]
            if existing.isDirectory && entry.isDirectory { return }
            throw PackagingError.collision(archivePath: entry.path, first: existing.origin, second: entry.origin)
        }
        indexByPath[entry.path] = Int32(entries.count)
        entries.append(entry)
    }

    /// The entries in the order added, without parent folders (a tree walked once, to add to
    /// other builders). Empties the builder.
    package mutating func takeEntries() -> [ArchiveEntry] {
        indexByPath = [:]
        defer { entries = [] }
        return entries
    }

    /// All entries plus explicit parent folders, sorted bytewise. Empties the builder.
    package mutating func finish() throws -> [ArchiveEntry] {
        var folders: [String: ArchiveEntry] = [:]
        for entry in entries {
            var parent = ArchivePath.parent(entry.path)
            while !parent.isEmpty {
                if let existing = indexByPath[parent].map({ entries[Int($0)] }) ?? folders[parent] {
                    guard existing.isDirectory else {
                        throw PackagingError.collision(
                            archivePath: parent, first: existing.origin, second: "the folder holding \(entry.origin)")
                    }
                    break
                }
                folders[parent] = ArchiveEntry(
                    path: parent, content: .directory, mode: 0o755, origin: "folder of \(entry.path)")
                parent = ArchivePath.parent(parent)
            }
        }
        indexByPath = [:]
        var all = entries
        entries = []
        all.append(contentsOf: folders.values)
        all.sort { bytewiseLess($0.path, $1.path) }
        return all
    }
}
