import Foundation

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
