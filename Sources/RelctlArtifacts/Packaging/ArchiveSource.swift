/// Where an archive file entry's bytes are read from: an absolute path, kept as its string only.
/// A `URL` per entry cost ~320 bytes (the URL object and its parsed storage) on top of the path:
/// 32 MB for a tree of 100,000 files (issue 31). The entry's `origin` shares this string.
package struct ArchiveSource: Sendable, Equatable {
    package var path: String

    package init(path: String) { self.path = path }
}
