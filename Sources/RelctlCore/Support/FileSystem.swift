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
    static func exists(_ url: URL) -> Bool { exists(atPath: url.path) }

    public static func exists(atPath path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Whether `url` is a folder or something else, nil when nothing is there.
    public static func kind(of url: URL) -> Kind? { kind(atPath: url.path) }

    static func kind(atPath path: String) -> Kind? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue ? .directory : .file
    }

    /// True when `url` is a folder (or a link to one).
    public static func isDirectory(_ url: URL) -> Bool { kind(of: url) == .directory }

    /// True when the current user may run `url`.
    static func isExecutable(_ url: URL) -> Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// The size in bytes, nil when it cannot be read.
    static func size(of url: URL) -> Int64? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64
    }

    /// The permission bits (`0o644`), nil when they cannot be read.
    static func permissions(of url: URL) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? NSNumber)?.intValue
    }

    /// Where the symlink at `path` points, as written.
    public static func symlinkDestination(atPath path: String) throws -> String {
        do { return try FileManager.default.destinationOfSymbolicLink(atPath: path) } catch {
            throw wrap(error, path)
        }
    }

    // MARK: Reading

    /// The whole file, nil when it does not exist or cannot be read.
    static func contents(of url: URL) -> Data? { contents(atPath: url.path) }

    static func contents(atPath path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The names in a folder (not `.` and `..`), in no particular order.
    static func names(in directory: URL) throws -> [String] { try names(atPath: directory.path) }

    static func names(atPath path: String) throws -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw wrap(error, path)
        }
    }

    // MARK: Changing

    /// Creates a folder and any missing parents; an existing folder is fine.
    static func createDirectory(_ url: URL) throws {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw wrap(error, url.path)
        }
    }

    /// Creates (or truncates) a file holding `data`, with `permissions` when given.
    static func createFile(_ url: URL, contents data: Data, permissions: Int? = nil) throws {
        let attributes: [FileAttributeKey: Any]? = permissions.map { [.posixPermissions: $0] }
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: attributes) else {
            throw FileSystemError(path: url.path, action: "cannot create the file", errno: errno)
        }
    }

    /// Removes a file, or a folder with everything in it.
    static func remove(_ url: URL) throws { try remove(atPath: url.path) }

    static func remove(atPath path: String) throws {
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw wrap(error, path)
        }
    }

    /// Copies a file (or folder) to a new path; the destination must not exist.
    static func copy(_ source: URL, to destination: URL) throws {
        do { try FileManager.default.copyItem(at: source, to: destination) } catch {
            throw wrap(error, destination.path)
        }
    }

    /// The text of the POSIX error `code` ("Permission denied"), for messages about a failed call.
    static func describe(errno code: Int32) -> String { String(cString: strerror(code)) }

    // MARK: Places

    /// The system's folder for temporary files.
    static var temporaryDirectory: URL { FileManager.default.temporaryDirectory }

    /// The user's home folder, as the system knows it (callers prefer `$HOME` when set).
    static var homeDirectory: URL { FileManager.default.homeDirectoryForCurrentUser }

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
