import Foundation

/// A write the storage refused: the disk is full (or the quota used up), the file is larger than
/// this process may write (`ulimit -f`: EFBIG, with SIGXFSZ ignored by `WriteFaultSignals`), the
/// file system is read-only, or the device failed (EIO). Every other write to the same place
/// fails the same way, so a command that meets one stops its other writes instead of starting
/// them (`Packager`), and reports that one fault, naming the file.
package enum StorageFault {
    /// True for the `errno` values that mean the storage, not the file, is the problem.
    package static func isFault(_ code: Int32) -> Bool {
        [ENOSPC, EDQUOT, EFBIG, EROFS, EIO].contains(code)
    }

    /// The POSIX reason with what to do about it: `No space left on device; free some space and
    /// run again`. Every write path's message for a failed write(2), close(2) or rename(2).
    package static func reason(_ code: Int32) -> String {
        FileSystem.describe(errno: code) + advice(code)
    }

    /// What to do, appended to the reason ("" when there is nothing better to say).
    package static func advice(_ code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: return "; free some space and run again"
        case EFBIG: return "; the file is larger than this process may write (ulimit -f): raise the limit and run again"
        case EIO: return "; the disk reported an error: check it and run again"
        case EACCES, EPERM, EROFS: return "; check the folder exists and is writable"
        default: return ""
        }
    }

    /// The storage fault behind `error`, if it is one (a `ProblemList` holding one counts).
    package static func code(of error: any Error) -> Int32? {
        (error as? any StorageFaultCarrying)?.storageFault
    }
}

/// An error that may have been caused by the storage refusing a write (`StorageFault`).
package protocol StorageFaultCarrying: Error {
    /// The `errno` of the refused write when it is a storage fault, else nil.
    var storageFault: Int32? { get }
}

/// The signals a failing write raises, set up once at start-up (`RelctlCLI.main`).
///
/// - SIGXFSZ, raised by a write past the file-size limit (`ulimit -f`), would kill relctl on
///   the spot, leaving its temporaries and saying nothing. It is caught by a handler that does
///   nothing, so the write returns EFBIG instead and the error names the file like any other
///   storage fault (`StorageFault`). A handler rather than SIG_IGN: an ignored signal stays
///   ignored in the children relctl starts (builds, git, hooks), a handler is reset by exec.
/// - SIGPIPE is left as it is: `relctl notes | head -1` ends relctl quietly when `head` closes
///   the pipe, as every Unix filter does. (The process runner blocks it on the one thread that
///   writes a child's stdin.)
package enum WriteFaultSignals {
    package static func install() {
        signal(SIGXFSZ) { _ in }
    }
}
