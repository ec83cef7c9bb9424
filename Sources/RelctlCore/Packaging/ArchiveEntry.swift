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

    /// Relative to the top-level folder, `/`-separated, normalised (`bin/velo-sql`).
    package var path: String
    package var content: Content
    /// Permission bits as stored: 0755 for directories and executables, 0644 otherwise, 0777 for links.
    package var mode: UInt32
    /// Where the entry came from, for messages (`config`, a source path, `generated`).
    package var origin: String

    package init(path: String, content: Content, mode: UInt32, origin: String) {
        self.path = path
        self.content = content
        self.mode = mode
        self.origin = origin
    }

    package var isDirectory: Bool { content == .directory }
}

/// Byte-wise order (not locale or Unicode order), so archives and checksum lists sort the same
/// everywhere, as `LC_ALL=C sort` does.
package func bytewiseLess(_ a: String, _ b: String) -> Bool {
    a.utf8.lexicographicallyPrecedes(b.utf8)
}
