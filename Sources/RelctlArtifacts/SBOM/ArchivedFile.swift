import Crypto
import RelctlBasics

/// A regular file as stored in an archive, recorded while the archive is written so the SBOM
/// lists exactly what went in without reading the archive again.
///
/// An archive of 100,000 files records 100,000 of these, so each is kept small (issue 31): the
/// top-level folder is one string shared by every file of the archive, the path under it is the
/// layout entry's own string (shared, not copied), and the digest is 32 bytes inline rather than
/// a 64-character hex string on the heap. No allocation per file.
package struct ArchivedFile: Sendable, Equatable {
    /// The archive's top-level folder; empty when `entryPath` is already the whole path.
    private var folder: String
    private var entryPath: String
    private var digest: SHA256Bytes
    package var size: Int64

    /// The path inside the archive, top-level folder included (as `tar -tzf` prints it).
    package var path: String { folder.isEmpty ? entryPath : folder + "/" + entryPath }
    /// Lowercase hex.
    package var sha256: String { digest.hex }

    package init(path: String, sha256: String, size: Int64) {
        self.folder = ""
        self.entryPath = path
        self.digest = SHA256Bytes(hex: sha256)
        self.size = size
    }

    /// A file at `folder/entryPath`, hashed while it was written.
    package init(folder: String, entryPath: String, digest: SHA256.Digest, size: Int64) {
        self.folder = folder
        self.entryPath = entryPath
        self.digest = SHA256Bytes(digest)
        self.size = size
    }

    package static func == (a: ArchivedFile, b: ArchivedFile) -> Bool {
        a.path == b.path && a.digest == b.digest && a.size == b.size
    }

    /// Bytewise order of `path`, without building the joined strings (the folder is the same for
    /// every file of one archive, so the entry paths decide).
    package static func pathLess(_ a: ArchivedFile, _ b: ArchivedFile) -> Bool {
        if a.folder == b.folder { return bytewiseLess(a.entryPath, b.entryPath) }
        return bytewiseLess(a.path, b.path)
    }

    private static let slash: [UInt8] = [UInt8(ascii: "/")]

    /// Hands `path` as UTF-8 to `body`, in pieces, without joining strings.
    package func withPathBytes(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        var folder = folder
        var entryPath = entryPath
        if !folder.isEmpty {
            try folder.withUTF8(body)
            try Self.slash.withUnsafeBufferPointer(body)
        }
        try entryPath.withUTF8(body)
    }
}
