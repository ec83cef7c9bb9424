import Foundation
import Synchronization

/// Writes that either complete or leave nothing: data goes to a hidden temporary file in the
/// destination folder, which is renamed over the destination only once fully written.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed. The temporary is
    /// relctl's own (`Temporaries` naming, created with open(2), registered for cleanup before it
    /// exists): no library writes a temporary of its own whose name relctl would not know.
    public static func write(_ data: Data, to url: URL, permissions: Int = 0o644) throws {
        try writeThrough(to: url, permissions: permissions) { sink in try sink.write(data) }
    }

    /// Writes what `body` hands out, piece by piece, to `url` atomically: for documents too long
    /// to hold whole (a `manifest.json` or `SHA256SUMS` of 100,000 archives). Pieces are
    /// gathered into 64 KiB writes.
    public static func write(
        to url: URL, permissions: Int = 0o644, _ body: (_ piece: (String) throws -> Void) throws -> Void
    ) throws {
        try writeThrough(to: url, permissions: permissions) { sink in
            var buffer = Data()
            buffer.reserveCapacity(1 << 16)
            try body { piece in
                buffer.append(contentsOf: piece.utf8)
                if buffer.count >= 1 << 16 {
                    try sink.write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            try sink.write(buffer)
        }
    }

    /// Writes `url` atomically through its temporary's descriptor, for writers that stream a large
    /// file themselves (a .deb or .rpm around a 200 MiB binary). `body` writes with write(2) and
    /// never closes the descriptor; when it throws, the temporary is removed and `url` left as it was.
    package static func write<Result>(
        to url: URL, permissions: Int = 0o644, throughDescriptor body: (Int32) throws -> Result
    ) throws -> Result {
        var result: Result?
        try writeThroughUnmeasured(to: url, permissions: permissions) { sink in result = try body(sink.descriptor) }
        return result!
    }

    /// The temporary's descriptor while an atomic write is under way.
    private final class Sink {
        let descriptor: Int32
        let url: URL
        /// `writeAll` closes the descriptor when it fails; everything else leaves it to the writer.
        var isOpen = true

        init(descriptor: Int32, url: URL) {
            self.descriptor = descriptor
            self.url = url
        }

        func write(_ data: Data) throws {
            isOpen = false
            try AtomicFile.writeAll(data, to: descriptor, reportedAs: url)
            isOpen = true
        }
    }

    /// The one atomic write both forms share: `body` writes to the temporary; once it returns, the
    /// temporary gets its mode, is closed and renamed into place. On any failure the temporary is
    /// removed and the destination is left as it was.
    private static func writeThrough(to url: URL, permissions: Int, _ body: (Sink) throws -> Void) throws {
        try WorkProfile.shared.measure(.writes) { try writeThroughUnmeasured(to: url, permissions: permissions, body) }
    }

    private static func writeThroughUnmeasured(to url: URL, permissions: Int, _ body: (Sink) throws -> Void) throws {
        let directory = url.deletingLastPathComponent()
        do { try FileSystem.createDirectory(directory) } catch {
            throw FileSystemError(error, path: directory.path, action: "cannot create the folder")
        }
        let temporary = temporaryURL(for: url)
        let descriptor = CleanupRegistry.shared.create(temporary, mode: mode_t(permissions))
        guard descriptor >= 0 else { throw writeError(errno, url) }
        defer { CleanupRegistry.shared.unregister(temporary) }
        let sink = Sink(descriptor: descriptor, url: url)
        do {
            try body(sink)
            // The mode asked for, whatever the umask.
            _ = fchmod(descriptor, mode_t(permissions))
            sink.isOpen = false
            if close(descriptor) != 0 { throw writeError(errno, url) }
            try commit(temporary, to: url)
        } catch {
            if sink.isOpen { close(descriptor) }
            unlink(temporary.path)
            throw error
        }
    }

    /// write(2) until every byte is out; closes the descriptor on failure.
    package static func writeAll(_ data: Data, to descriptor: Int32, reportedAs url: URL) throws {
        let failure: Int32? = data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failure {
            close(descriptor)
            throw writeError(failure, url)
        }
    }

    public static func write(_ text: String, to url: URL, permissions: Int = 0o644) throws {
        try write(Data(text.utf8), to: url, permissions: permissions)
    }

    /// A hidden sibling name for in-progress output: `.NAME.relctl-tmp-<pid>-<random>` (`Temporaries`).
    package static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(Temporaries.name(".\(url.lastPathComponent)"))
    }

    /// One line for a failed write: what happened and what to do (`StorageFault.advice`).
    package static func writeError(_ code: Int32, _ url: URL) -> FileSystemError {
        var error = FileSystemError(
            path: url.path, action: "cannot write", reason: FileSystem.describe(errno: code),
            advice: StorageFault.advice(code))
        error.code = code
        return error
    }

    /// Renames a finished file over its destination (rename(2) is atomic on one filesystem): the one
    /// atomic replace every writer ends with. `registered` also hands the destination to the cleanup
    /// registry in the same step (a release's files, which an interrupt must take back).
    package static func commit(
        _ temporary: URL, to url: URL, registered: Bool = false,
        action: String = "cannot move the finished file into place"
    ) throws {
        let status =
            registered
            ? CleanupRegistry.shared.appear(url, by: { rename(temporary.path, url.path) })
            : rename(temporary.path, url.path)
        if status != 0 {
            throw FileSystemError(path: url.path, action: action, errno: errno)
        }
    }

    /// Why a finished file could not be put in place without replacing anything.
    package enum PlacementFailure: Error, Sendable {
        /// Something is already at the destination; it was left alone.
        case exists
        case failed(SystemCallFailure)
    }

    /// Puts a finished temporary at `url` only if nothing is there, and removes the temporary.
    /// link(2) fails with EEXIST instead of replacing, so an existing file is never overwritten;
    /// on filesystems without hard links (vfat, some network mounts) it checks, then renames,
    /// and the window between the two is the price of writing there at all. `registered` hands
    /// the destination to the cleanup registry in the same step as it appears.
    package static func placeWithoutReplacing(
        _ temporary: URL, at url: URL, registered: Bool = false
    ) throws(PlacementFailure) {
        func appear(_ body: () -> Int32) -> Int32 {
            registered ? CleanupRegistry.shared.appear(url, by: body) : body()
        }
        if appear({ link(temporary.path, url.path) }) != 0 {
            let linkError = errno
            if linkError == EEXIST { throw .exists }
            guard [EPERM, EOPNOTSUPP, EMLINK, ENOSYS].contains(linkError) else {
                throw .failed(SystemCallFailure(code: linkError))
            }
            if FileSystem.exists(url) { throw .exists }
            if appear({ Foundation.rename(temporary.path, url.path) }) != 0 {
                throw .failed(SystemCallFailure(code: errno))
            }
            return
        }
        unlink(temporary.path)
    }

    /// Writes `data` whole to a temporary beside `url` and puts it at `url` only if nothing is
    /// there, registered for cleanup as it appears: a file that exists only with its contents (a
    /// lock created empty and written after is left empty by a kill between the two). Returns
    /// false, leaving `url` alone, when something is already there. The temporary never outlives
    /// the call; a kill leaves it named for a dead process, for `Temporaries.reclaim`.
    package static func create(_ data: Data, at url: URL, action: String) throws -> Bool {
        let temporary = temporaryURL(for: url)
        let descriptor = CleanupRegistry.shared.create(temporary)
        guard descriptor >= 0 else { throw FileSystemError(path: url.path, action: action, errno: errno) }
        defer {
            unlink(temporary.path)
            CleanupRegistry.shared.unregister(temporary)
        }
        // writeAll closes the descriptor when it fails.
        try writeAll(data, to: descriptor, reportedAs: url)
        if close(descriptor) != 0 { throw writeError(errno, url) }
        do {
            try placeWithoutReplacing(temporary, at: url, registered: true)
            return true
        } catch .exists {
            return false
        } catch .failed(let failure) {
            throw FileSystemError(path: url.path, action: action, errno: failure.code)
        }
    }

    /// Replaces the folder at `destination` with the finished `staging` folder, so that either the
    /// old or the new folder is there, never neither and never a mix. The two trade places in one
    /// rename (`RENAME_EXCHANGE`): a disk that fails it leaves the old folder untouched. Where the
    /// file system cannot exchange (or nothing is there yet), the old one is moved aside first and
    /// put back if the move fails. The old folder is removed once the new one is in place.
    package static func replaceFolder(_ staging: URL, at destination: URL) throws(SystemCallFailure) {
        switch exchange(staging, destination) {
        case 0:
            // The old folder now sits at the staging path, which the caller's cleanup also covers.
            try? FileSystem.remove(staging)
            return
        case ENOENT, EINVAL, ENOSYS, EOPNOTSUPP:
            break
        case let code:
            throw SystemCallFailure(code: code)
        }
        let old = destination.deletingLastPathComponent().appendingPathComponent(
            Temporaries.name(".\(destination.lastPathComponent).old"))
        let hadOld = Foundation.rename(destination.path, old.path) == 0
        if Foundation.rename(staging.path, destination.path) != 0 {
            let failure = SystemCallFailure(code: errno)
            if hadOld { Foundation.rename(old.path, destination.path) }
            throw failure
        }
        if hadOld { try? FileSystem.remove(old) }
    }

    /// renameat2(2) with `RENAME_EXCHANGE`: 0, or the `errno` (ENOSYS when the C library lacks it).
    /// Glibc declares it only for `_GNU_SOURCE`, which Swift's Glibc module does not see, so it is
    /// looked up by name (an `LD_PRELOAD` library's own, as the write-fault tests use, comes first).
    private static func exchange(_ first: URL, _ second: URL) -> Int32 {
        typealias RenameAt2 =
            @convention(c) (Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, UInt32) -> Int32
        guard let symbol = dlsym(nil, "renameat2") else { return ENOSYS }
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        // RENAME_EXCHANGE in <linux/fs.h>.
        let renameExchange: UInt32 = 1 << 1
        return renameat2(AT_FDCWD, first.path, AT_FDCWD, second.path, renameExchange) == 0 ? 0 : errno
    }

    /// Writes a folder whole: `body` fills a new temporary sibling of `destination` (registered for
    /// cleanup), which then replaces `destination` (`replaceFolder`). On any failure the temporary
    /// goes and `destination` is left as it was; a failed write inside the temporary is reported at
    /// the path the file would have had in `destination`, the one the user knows.
    package static func writeFolder<Result>(
        _ destination: URL, _ body: (_ staging: URL) throws -> Result
    ) throws
        -> Result
    {
        let staging = temporaryURL(for: destination)
        do {
            try CleanupRegistry.shared.makeDirectory(staging)
        } catch let error as FileSystemError {
            throw error.relocated(from: staging, to: destination)
        }
        defer { CleanupRegistry.shared.unregister(staging) }
        do {
            let result = try body(staging)
            do { try replaceFolder(staging, at: destination) } catch {
                throw FileSystemError(
                    path: destination.path, action: "cannot move the finished folder into place", errno: error.code)
            }
            return result
        } catch {
            try? FileSystem.remove(staging)
            if let error = error as? FileSystemError { throw error.relocated(from: staging, to: destination) }
            throw error
        }
    }
}

extension FileSystemError {
    /// The same error with a path inside `staging` named at its place inside `destination`.
    package func relocated(from staging: URL, to destination: URL) -> FileSystemError {
        guard let path, path == staging.path || path.hasPrefix(staging.path + "/") else { return self }
        var moved = self
        moved.path = destination.path + path.dropFirst(staging.path.count)
        return moved
    }
}
