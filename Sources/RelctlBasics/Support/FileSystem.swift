import Foundation

/// The one door to the filesystem (swiftly's `fs` and SwiftPM's `FileSystem` are the models):
/// existence and kind checks, listing, creating, removing, copying, reading and writing. Every
/// `FileManager` call of relctl lives here; failures are `FileSystemError`s naming the path and
/// the POSIX reason. Atomic replacement of a file goes through `AtomicFile`, built on this.
public enum FileSystem {
    /// What a path is, following symlinks.
    public enum Kind: Sendable, Equatable {
        case directory
        /// Anything else that exists: a regular file, a device, a pipe, a socket.
        case file
    }

    // MARK: Checks

    /// True when `url` exists (following symlinks: a dangling link does not).
    package static func exists(_ url: URL) -> Bool { exists(atPath: url.path) }

    public static func exists(atPath path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Whether `url` is a folder or something else, nil when nothing is there.
    public static func kind(of url: URL) -> Kind? { kind(atPath: url.path) }

    package static func kind(atPath path: String) -> Kind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .directory : .file
    }

    /// True when `url` is a folder (or a link to one).
    public static func isDirectory(_ url: URL) -> Bool { kind(of: url) == .directory }

    /// True when the current user may run `url`.
    package static func isExecutable(_ url: URL) -> Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// The size in bytes, nil when it cannot be read.
    package static func size(of url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64
    }

    /// The size in bytes from one stat(2), nil when it cannot be read: for lists of many files,
    /// where building an attributes dictionary per file shows.
    package static func size(atPath path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// The permission bits (`0o644`), nil when they cannot be read.
    package static func permissions(of url: URL) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? NSNumber)?.intValue
    }

    /// When the file was last modified, nil when it cannot be read.
    package static func modificationDate(of url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    /// Sets the file's modification time to now (a cache's "last used" mark); a file that cannot
    /// be touched is left as it is.
    package static func touch(_ url: URL) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    }

    /// Where the symlink at `path` points, as written.
    public static func symlinkDestination(atPath path: String) throws -> String {
        do { return try FileManager.default.destinationOfSymbolicLink(atPath: path) } catch {
            throw wrap(error, path)
        }
    }

    // MARK: Reading

    /// The whole file, nil when it does not exist or cannot be read.
    package static func contents(of url: URL) -> Data? { contents(atPath: url.path) }

    package static func contents(atPath path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// At most the first `count` bytes of a file (empty when it cannot be read): for a file from
    /// outside whose start is all a message needs.
    package static func prefix(of url: URL, count: Int) -> Data {
        (try? bounded(url, limit: count))?.data ?? Data()
    }

    /// The file when it holds at most `limit` bytes; `tooLarge` as soon as more arrive (only
    /// `limit + 1` bytes are ever held). Nil when it does not exist or cannot be read.
    package static func contents(of url: URL, limit: Int) -> BoundedRead? {
        guard let read = try? bounded(url, limit: limit) else { return nil }
        return read.complete ? .whole(read.data) : .tooLarge(limit: limit)
    }

    package enum BoundedRead: Sendable, Equatable {
        case whole(Data)
        case tooLarge(limit: Int)
    }

    private static func bounded(_ url: URL, limit: Int) throws -> (data: Data, complete: Bool) {
        let file = try ReadableFile(path: url.path)
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        while data.count <= limit {
            let count = try file.read(into: buffer)
            if count == 0 { return (data, true) }
            data.append(contentsOf: buffer[0..<min(count, limit + 1 - data.count)])
        }
        return (data.prefix(limit), false)
    }

    /// The names in a folder (not `.` and `..`), in no particular order.
    package static func names(in directory: URL) throws -> [String] { try names(atPath: directory.path) }

    package static func names(atPath path: String) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw wrap(error, path)
        }
    }

    /// Calls `body` with each name in a folder (no `.` or `..`), in the order the file system
    /// gives, without holding the listing: a folder of 200,000 files is 200,000 strings otherwise.
    package static func forEachName(in directory: URL, _ body: (String) throws -> Void) throws {
        guard let stream = opendir(directory.path) else {
            throw FileSystemError(path: directory.path, action: "cannot list the folder", errno: errno)
        }
        defer { closedir(stream) }
        // The name is read through a pointer up to its NUL: glibc packs entries by their real
        // length, so copying `pointee` (a full 256-byte name field) can read past the end of its
        // buffer and fault, as it did on a folder of 10,000 archives.
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(stream) {
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name == "." || name == ".." { continue }
            try body(name)
        }
    }

    // MARK: Changing

    /// Creates a folder and any missing parents; an existing folder is fine.
    package static func createDirectory(_ url: URL) throws {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw wrap(error, url.path)
        }
    }

    /// Creates (or truncates) a file holding `data`, with `permissions` when given.
    /// The path with every link and `..` resolved (realpath(3)), or nil when some part is missing:
    /// the one place relctl asks where a path really is.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Creates the folders of the relative `path` inside `root`, refusing any that is a link or not
    /// a folder, so a file written there never lands outside `root`.
    package static func createFolders(of path: String, inside root: URL) throws {
        var folder = root
        for part in path.split(separator: "/").dropLast() {
            folder = folder.appendingPathComponent(String(part))
            var info = stat()
            if lstat(folder.path, &info) != 0 {
                try createDirectory(folder)
            } else if (info.st_mode & S_IFMT) != S_IFDIR {
                throw FileSystemError(
                    path: folder.path,
                    action: "is not a plain folder (a link?); relctl writes only into the folder itself",
                    errno: ENOTDIR)
            }
        }
    }

    package static func createFile(_ url: URL, contents data: Data, permissions: Int? = nil) throws {
        let attributes: [FileAttributeKey: Any]? = permissions.map { [.posixPermissions: $0] }
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: attributes) else {
            throw FileSystemError(path: url.path, action: "cannot create the file", errno: errno)
        }
    }

    /// Removes a file, or a folder with everything in it.
    package static func remove(_ url: URL) throws { try remove(atPath: url.path) }

    package static func remove(atPath path: String) throws {
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw wrap(error, path)
        }
    }

    /// Moves a file or folder to a new path on the same file system (rename(2), so a finished
    /// folder appears whole); the destination must not exist.
    package static func move(_ source: URL, to destination: URL) throws {
        guard Glibc.rename(source.path, destination.path) == 0 else {
            throw FileSystemError(path: destination.path, action: "cannot move \(source.path) here", errno: errno)
        }
    }

    /// Copies a file (or folder) to a new path; the destination must not exist. A failure names
    /// the destination, the file that could not be written, and the source in what it was doing
    /// (Foundation's own error names only the source, whatever failed).
    package static func copy(_ source: URL, to destination: URL) throws {
        do { try FileManager.default.copyItem(at: source, to: destination) } catch {
            throw FileSystemError(error, path: destination.path, action: "cannot copy \(source.path) here")
        }
    }

    /// Sets a file's modification time (Unix seconds): a tool that records it (wixl's cabinet)
    /// then writes the same bytes from run to run.
    package static func setModificationTime(_ url: URL, seconds: Int) throws {
        do {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: TimeInterval(seconds))], ofItemAtPath: url.path)
        } catch {
            throw FileSystemError(error, path: url.path, action: "cannot set the modification time")
        }
    }

    /// The text of the POSIX error `code` ("Permission denied"), for messages about a failed call.
    package static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    // MARK: Places

    /// The system's folder for temporary files.
    package static var temporaryDirectory: URL { FileManager.default.temporaryDirectory }

    /// The user's home folder, as the system knows it (callers prefer `$HOME` when set).
    package static var homeDirectory: URL { FileManager.default.homeDirectoryForCurrentUser }

    /// The process's working folder.
    public static var currentDirectory: URL {
        // getcwd(3) answers with an absolute path; the root is only the formal base.
        AbsolutePath(FileManager.default.currentDirectoryPath, relativeTo: .root).url
    }

    /// Foundation's error as a `FileSystemError`, naming `path` when Foundation does not.
    private static func wrap(_ error: any Error, _ path: String) -> FileSystemError {
        var wrapped = FileSystemError(error)
        if wrapped.path == nil { wrapped.path = path }
        return wrapped
    }
}

/// A file open for reading, closed when the value goes away: the door for code that streams a
/// file in blocks (hashing, scanning) instead of loading it whole.
package final class ReadableFile {
    private let descriptor: Int32

    /// Opens `path` read-only (close-on-exec), following links.
    package init(path: String) throws(SystemCallFailure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallFailure(code: errno) }
        self.descriptor = descriptor
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    deinit { close(descriptor) }

    /// fstat(2) of the open file: what was opened, even if the path changes meanwhile.
    package func status() throws(SystemCallFailure) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallFailure(code: errno) }
        return FileStatus(info)
    }

    /// Reads up to `buffer.count` bytes at `offset` (pread(2)), leaving the read position where
    /// it was; fewer at the end of the file. Retries an interrupted read and short reads.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(SystemCallFailure) -> Int {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw SystemCallFailure(code: errno)
            }
            done += count
        }
        return done
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file. Retries an interrupted read.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallFailure) -> Int {
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw SystemCallFailure(code: errno) }
        }
    }
}

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
