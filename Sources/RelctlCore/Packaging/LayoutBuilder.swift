import Foundation
import RelctlBasics

/// Collects entries, adds their parent folders, and refuses two sources for one path.
package struct LayoutBuilder {
    private var byPath: [String: ArchiveEntry] = [:]

    package mutating func add(_ entry: ArchiveEntry) throws {
        guard !entry.path.isEmpty else {
            throw PackagingError.unsafePath(
                path: entry.origin, reason: "maps onto the archive folder itself; give it a name with `to`")
        }
        try ArchivePath.checkName(entry.path)
        if let existing = byPath[entry.path] {
            if existing.isDirectory && entry.isDirectory { return }
            throw PackagingError.collision(archivePath: entry.path, first: existing.origin, second: entry.origin)
        }
        byPath[entry.path] = entry
    }

    /// All entries plus explicit parent folders, sorted bytewise. Empties the builder: with
    /// 100,000 entries a copy of the table (as `var all = byPath` made) cost ~12 MB (issue 31).
    package mutating func finish() throws -> [ArchiveEntry] {
        var folders: [String: ArchiveEntry] = [:]
        for entry in byPath.values {
            var parent = ArchivePath.parent(entry.path)
            while !parent.isEmpty {
                if let existing = byPath[parent] ?? folders[parent] {
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
        var entries = Array(byPath.values)
        byPath = [:]
        entries.append(contentsOf: folders.values)
        entries.sort { bytewiseLess($0.path, $1.path) }
        return entries
    }
}
