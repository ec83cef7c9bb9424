import Foundation

/// An advisory lock (flock(2)) on a folder, for read-modify-write of a file in it that several
/// relctl processes may update at once (`manifest.json` when CI runs `package` per target into one
/// folder). Locking the folder itself leaves no lock file behind, and the kernel drops the lock
/// if the process dies, so it can never go stale.
package enum FileLock {
    /// Runs `body` holding an exclusive lock on the folder `url`.
    package static func withLock<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw FileSystemError(path: url.path, action: "cannot open the folder to lock it", errno: errno)
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw FileSystemError(path: url.path, action: "cannot lock", errno: errno)
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
