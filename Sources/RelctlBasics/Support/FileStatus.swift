import Foundation

/// What stat(2) or lstat(2) says about a path: read through the filesystem door, so the rest of
/// relctl never calls the system directly (and never mistakes `st_mode` bits).
package struct FileStatus: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case regular, directory, symlink
        /// A device, FIFO or socket: `FileKind.describe(mode)` names it.
        case special
    }

    /// The whole `st_mode`: type and permission bits.
    package var mode: mode_t
    package var size: Int64
    package var device: UInt64
    package var inode: UInt64
    package var linkCount: UInt64
    package var owner: UInt32
    package var group: UInt32
    /// Seconds since the epoch.
    package var modified: Int
    /// The last modification and the last status change (st_ctime, which no program can set
    /// back), in nanoseconds since the epoch: with the device, inode and size, what tells that a
    /// file's bytes may have changed without reading them, as git's index does.
    package var modifiedNanoseconds: Int64
    package var changedNanoseconds: Int64

    package init(_ info: stat) {
        mode = info.st_mode
        size = Int64(info.st_size)
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        linkCount = UInt64(info.st_nlink)
        owner = UInt32(info.st_uid)
        group = UInt32(info.st_gid)
        modified = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changedNanoseconds = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    package var kind: Kind {
        switch mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symlink
        default: return .special
        }
    }

    package var isRegularFile: Bool { kind == .regular }
    package var isDirectory: Bool { kind == .directory }
    package var isSymlink: Bool { kind == .symlink }

    /// "a file", "a folder", "a symbolic link" or what the special file is.
    package var article: String {
        switch kind {
        case .regular: return "a file"
        case .directory: return "a folder"
        case .symlink: return "a symbolic link"
        case .special: return "a " + FileKind.describe(mode)
        }
    }
}

/// A system call that failed, with its `errno`.
package struct SystemCallFailure: Error, Sendable, CustomStringConvertible {
    package var code: Int32

    package init(code: Int32) { self.code = code }

    /// Nothing is at the path (or a folder on the way is missing): not a permission problem.
    package var isMissing: Bool { code == ENOENT || code == ENOTDIR }
    package var description: String { FileSystem.describe(errno: code) }
}

extension FileSystem {
    /// stat(2) of `path`, or lstat(2) when `followingLinks` is false.
    package static func status(
        atPath path: String, followingLinks: Bool = true
    ) throws(SystemCallFailure) -> FileStatus {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { throw SystemCallFailure(code: errno) }
        return FileStatus(info)
    }

    /// The status, or nil when it cannot be read (nothing there, or not allowed to look).
    package static func statusIfPresent(atPath path: String, followingLinks: Bool = true) -> FileStatus? {
        try? status(atPath: path, followingLinks: followingLinks)
    }

    /// Whether the current user may read (`R_OK`) or run (`X_OK`) `path`, as access(2) decides.
    package static func isAccessible(atPath path: String, _ mode: Int32) -> Bool { access(path, mode) == 0 }

    /// Why the current user may not read (`R_OK`) or run (`X_OK`) `path`, or nil when they may.
    package static func accessFailure(atPath path: String, _ mode: Int32) -> SystemCallFailure? {
        access(path, mode) == 0 ? nil : SystemCallFailure(code: errno)
    }

    /// Removes the folder at `path` only when it is empty (rmdir(2)): for undoing a folder relctl
    /// created without any risk of deleting what someone put there since.
    @discardableResult
    package static func removeEmptyFolder(atPath path: String) -> Bool { rmdir(path) == 0 }
}

extension FileSystem {
    /// Removes the file (or link) at `path` with unlink(2); false when nothing was removed. For
    /// taking back relctl's own temporaries and half-written outputs, where a missing file is fine.
    @discardableResult
    package static func removeFile(atPath path: String) -> Bool { unlink(path) == 0 }

    /// rename(2): atomic on one filesystem, replacing what is at `destination`.
    package static func rename(atPath source: String, to destination: String) throws(SystemCallFailure) {
        guard Foundation.rename(source, destination) == 0 else { throw SystemCallFailure(code: errno) }
    }

    /// Sets the modification time of the file at `path` (not following a link) to `nanoseconds`
    /// since the epoch, leaving its access time (utimensat(2)).
    package static func setModificationTime(
        atPath path: String, nanoseconds: Int64
    ) throws(SystemCallFailure) {
        #if canImport(Darwin)
            let omit = -2  // UTIME_OMIT
        #else
            let omit = (1 << 30) - 2  // UTIME_OMIT
        #endif
        let times = [
            timespec(tv_sec: 0, tv_nsec: omit),
            timespec(
                tv_sec: time_t(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000)),
        ]
        guard utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw SystemCallFailure(code: errno)
        }
    }

    /// A hard link at `destination` to the file at `source` (link(2)); fails with `EEXIST` instead
    /// of replacing anything.
    package static func hardLink(atPath source: String, to destination: String) throws(SystemCallFailure) {
        guard link(source, destination) == 0 else { throw SystemCallFailure(code: errno) }
    }

    /// Where the symbolic link at `path` points, byte for byte as stored (readlink(2)); bytes that
    /// are not UTF-8 become U+FFFD, which the archive name check then refuses.
    package static func linkTarget(atPath path: String) throws(SystemCallFailure) -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                readlink(path, $0, bytes.count - 1)
            }
        }
        guard count >= 0 else { throw SystemCallFailure(code: errno) }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    /// Sets the permission bits of an open file (fchmod(2)), whatever the umask made them.
    @discardableResult
    package static func setPermissions(_ mode: mode_t, ofOpenFile descriptor: Int32) -> Bool {
        fchmod(descriptor, mode) == 0
    }
}

/// File-type helpers over stat(2) modes.
package enum FileKind {
    /// True for a regular file at `path`, following symlinks.
    package static func isRegularFile(_ path: String) -> Bool {
        FileSystem.statusIfPresent(atPath: path)?.isRegularFile == true
    }

    /// True for a directory (not following a final symlink).
    package static func isDirectory(_ path: String) -> Bool {
        FileSystem.statusIfPresent(atPath: path, followingLinks: false)?.isDirectory == true
    }

    /// 0755 when the owner may execute it, else 0644: the owner's bit, as git records it. (With
    /// a POSIX ACL the group bits show the ACL mask, which can carry `x` on a plain file.)
    package static func normalizedMode(_ mode: mode_t) -> UInt32 {
        (mode & 0o100) != 0 ? 0o755 : 0o644
    }

    package static func describe(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFIFO: return "FIFO (named pipe)"
        case S_IFSOCK: return "socket"
        default: return "special file"
        }
    }
}
