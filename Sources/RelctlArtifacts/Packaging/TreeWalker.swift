import Foundation
import RelctlBasics
import RelctlModel

/// The trees of one `package` run, walked once and added to every target's layout: each tree is
/// the same for every target unless its `from` or `to` names the target, and then its key differs.
/// Only for one run's layouts, computed together: files may change between runs.
package final class TreeWalks {
    private var walked: [String: [ArchiveEntry]] = [:]

    package init() {}

    /// Adds the tree at `source` under `destination` to `builder`, walking it with `walker` the
    /// first time. A walk that fails is not kept, so the next target walks it again and fails the same way.
    package func add(
        _ source: URL, into destination: String, walker: TreeWalker, builder: inout LayoutBuilder
    ) throws {
        let key = source.path + "\u{0}" + destination
        // Not a walk: the profile's file walk counts each tree once.
        if let entries = walked[key] {
            for entry in entries { try builder.add(entry) }
            return
        }
        var own = LayoutBuilder()
        try walker.walk(source, into: destination, builder: &own)
        let entries = own.takeEntries()
        walked[key] = entries
        for entry in entries { try builder.add(entry) }
    }
}

/// Walks a configured tree with lstat(2): files are added, symlinks kept as links (checked later
/// by `LinkResolver`), anything else refused. Folders come in through the files they hold: git
/// keeps no empty folder, so a fresh clone has none, and neither does an archive.
package struct TreeWalker {
    package var exclude: [String]
    /// The output folder, when it lies inside a tree: its earlier archives must not be packaged
    /// into the next ones (and `--clean` deletes them while the layout still lists them).
    package var skipping: FileIdentity? = nil
    /// What git ignores, with the project root its paths are relative to.
    package var ignored: (paths: IgnoredPaths, root: String)? = nil

    package func walk(_ source: URL, into destination: String, builder: inout LayoutBuilder) throws {
        guard let info = FileSystem.statusIfPresent(atPath: source.path) else {
            throw PackagingError.missingSource(path: source.path, key: "trees")
        }
        switch info.kind {
        case .regular:
            try builder.add(
                ArchiveEntry(
                    path: destination, content: .file(source), mode: FileKind.normalizedMode(info.mode),
                    origin: source.path))
            return
        case .directory: break
        case .symlink, .special: throw PackagingError.specialFile(path: source.path, kind: FileKind.describe(info.mode))
        }
        let folder = AbsolutePath(source)
        // One string for the whole tree: each file's source path is this plus the end of its
        // archive path (`ArchiveEntry`).
        let head = folder.pathString.hasSuffix("/") ? folder.pathString : folder.pathString + "/"
        try WorkProfile.shared.measure(.fileWalk) {
            try walkDirectory(folder, relative: "", destination: destination, head: head, builder: &builder)
        }
    }

    private func walkDirectory(
        _ folder: AbsolutePath, relative: String, destination: String, head: String, builder: inout LayoutBuilder
    ) throws {
        let names: [String]
        do { names = try FileSystem.names(atPath: folder.pathString) } catch {
            let cause = FileSystemError.cause(of: error)
            throw PackagingError.unreadable(
                path: folder.pathString, reason: (cause as NSError).localizedFailureReason ?? cause.localizedDescription
            )
        }
        for name in names {
            let location = folder.appending(name: name)
            let path = location.pathString
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            if isExcluded(relativePath, name: name) || isIgnored(path) { continue }
            let archivePath = ArchivePath.join(destination, relativePath)
            guard let info = FileSystem.statusIfPresent(atPath: path, followingLinks: false) else {
                throw PackagingError.missingSource(path: path, key: "trees")
            }
            switch info.kind {
            case .directory:
                if let skipping, skipping == FileIdentity(device: info.device, inode: info.inode) { continue }
                try walkDirectory(
                    location, relative: relativePath, destination: destination, head: head, builder: &builder)
            case .regular:
                // The archive path ends with the path relative to the tree, as the source path
                // does after `head`; checked (on bytes, no string built per file), so a source is
                // never derived wrongly.
                let tail = relativePath.utf8
                let tailStart = archivePath.utf8.count - tail.count
                let mode = FileKind.normalizedMode(info.mode)
                let derivable =
                    archivePath.utf8.suffix(tail.count).elementsEqual(tail)
                    && path.utf8.count == head.utf8.count + tail.count && path.utf8.starts(with: head.utf8)
                    && path.utf8.suffix(tail.count).elementsEqual(tail)
                let entry =
                    derivable
                    ? ArchiveEntry(path: archivePath, head: head, tailStart: tailStart, mode: mode)
                    : ArchiveEntry(
                        path: archivePath, content: .file(ArchiveSource(path: path)), mode: mode, origin: path)
                try builder.add(entry)
            case .symlink:
                let target = try readLink(path)
                try ArchivePath.checkName("\(archivePath) -> \(target)")
                try builder.add(ArchiveEntry(path: archivePath, content: .symlink(target), mode: 0o777, origin: path))
            case .special:
                throw PackagingError.specialFile(path: path, kind: FileKind.describe(info.mode))
            }
        }
    }

    /// Version-control metadata is never release content (a tree of `.` would otherwise ship
    /// the whole `.git`), so it is left out like `exclude` entries.
    package static let versionControlNames: Set<String> = [".git", ".hg", ".svn"]

    private func isExcluded(_ relativePath: String, name: String) -> Bool {
        Self.versionControlNames.contains(name)
            || exclude.contains { Glob.matches($0, relativePath) || Glob.matches($0, name) }
    }

    private func isIgnored(_ path: String) -> Bool {
        guard let ignored, path.hasPrefix(ignored.root + "/") else { return false }
        return ignored.paths.contains(String(path.dropFirst(ignored.root.count + 1)))
    }

    private func readLink(_ path: String) throws -> String {
        do { return try FileSystem.linkTarget(atPath: path) } catch {
            throw PackagingError.unreadable(path: path, reason: error.description)
        }
    }
}

/// Where an archive file entry's bytes are read from: an absolute path, kept as its string only.
/// A `URL` per entry cost ~320 bytes (the URL object and its parsed storage) on top of the path:
/// 32 MB for a tree of 100,000 files (issue 31). The entry's `origin` shares this string.
package struct ArchiveSource: Sendable, Equatable {
    package var path: String

    package init(path: String) { self.path = path }
}

/// A file's device and inode: names the same folder however the path to it is spelled.
package struct FileIdentity: Equatable {
    package var device: UInt64
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// Nil when nothing is at `path` yet.
    package init?(path: String) {
        guard let status = FileSystem.statusIfPresent(atPath: path) else { return nil }
        self.init(device: status.device, inode: status.inode)
    }
}
