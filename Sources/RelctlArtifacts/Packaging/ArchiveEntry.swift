import Foundation
import RelctlBasics

/// One entry of an archive, addressed by its path under the top-level folder.
package struct ArchiveEntry: Sendable, Equatable {
    package enum Content: Sendable, Equatable {
        case directory
        /// A regular file copied from disk in chunks.
        case file(ArchiveSource)
        /// A file relctl generates (`setup-env.sh`).
        case generated(Data)
        /// A relative symlink, stored as a link (links `keep`) or replaced by a copy (`copy`).
        case symlink(String)

        /// A regular file at `url` (which must be a file URL).
        package static func file(_ url: URL) -> Content { .file(ArchiveSource(path: url.path)) }
    }

    private enum Storage: Sendable, Equatable {
        case content(Content)
        /// A file found by walking a tree. Its source path is not kept: it is the tree's folder
        /// (`head`, one string for the whole tree) followed by this entry's own path from
        /// `tailStart` on (UTF-8 offset), which the two share: `demo/d000/f1.txt` is read from
        /// `/project/demo/d000/f1.txt`. At 100,000 files that saved 8 MB (issue 31). Only the
        /// entry knows its path, so `content` hands out the whole path, and an entry copied
        /// elsewhere (a link resolved by copying) carries that, not this.
        case walked(head: String, tailStart: Int32)
    }

    /// Relative to the top-level folder, `/`-separated, normalised (`bin/velo-sql`). Set once: a
    /// walked file's source path is derived from it.
    package let path: String
    private var storage: Storage
    /// Permission bits as stored: 0755 for directories and executables, 0644 otherwise, 0777 for links.
    package var mode: UInt32
    /// Where the entry came from, for messages (`config`, a source path, `generated`): nil when
    /// it is the file's own source path, which is then not held twice.
    private var note: String?

    package var content: Content {
        get {
            switch storage {
            case .content(let content): return content
            case .walked: return .file(ArchiveSource(path: sourcePath ?? ""))
            }
        }
        set { storage = .content(newValue) }
    }

    package var origin: String { note ?? sourcePath ?? "" }

    /// The file the entry's bytes are read from, for a `.file` entry.
    package var sourcePath: String? {
        switch storage {
        case .content(.file(let source)): return source.path
        case .content: return nil
        case .walked(let head, let tailStart):
            return head + String(decoding: path.utf8.dropFirst(Int(tailStart)), as: UTF8.self)
        }
    }

    package init(path: String, content: Content, mode: UInt32, origin: String) {
        self.path = path
        self.storage = .content(content)
        self.mode = mode
        self.note = origin
    }

    /// A walked tree's file at `head` + `path` from `tailStart` on; its origin is that path.
    /// - Precondition: `head` + that tail is the file's path (`TreeWalker` checks it).
    package init(path: String, head: String, tailStart: Int, mode: UInt32) {
        self.path = path
        self.storage = .walked(head: head, tailStart: Int32(tailStart))
        self.mode = mode
        self.note = nil
    }

    package var isDirectory: Bool { storage == .content(.directory) }

    /// A file found by walking a tree (no two of those read the same file).
    package var isWalked: Bool {
        if case .walked = storage { return true }
        return false
    }

    /// Equal when they describe the same archive entry, however the source path is held.
    package static func == (a: ArchiveEntry, b: ArchiveEntry) -> Bool {
        a.path == b.path && a.mode == b.mode && a.content == b.content && a.origin == b.origin
    }
}

/// Byte-wise order (not locale or Unicode order), so archives and checksum lists sort the same
/// everywhere, as `LC_ALL=C sort` does.
package func bytewiseLess(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
