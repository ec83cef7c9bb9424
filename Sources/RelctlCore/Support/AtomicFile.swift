import Foundation
import Synchronization

/// Writes that either complete or leave nothing: data goes to a hidden temporary file in the
/// destination folder, which is renamed over the destination only once fully written.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed.
    public static func write(_ data: Data, to url: URL, permissions: Int = 0o644) throws {
        let directory = url.deletingLastPathComponent()
        do { try FileSystem.createDirectory(directory) } catch {
            throw FileSystemError(error, path: directory.path, action: "cannot create the folder")
        }
        let temporary = temporaryURL(for: url)
        CleanupRegistry.shared.register(temporary)
        defer { CleanupRegistry.shared.unregister(temporary) }
        do {
            try writeNew(data, at: temporary, permissions: permissions, reportedAs: url)
            try commit(temporary, to: url)
        } catch {
            try? FileSystem.remove(temporary)
            throw error
        }
    }

    public static func write(_ text: String, to url: URL, permissions: Int = 0o644) throws {
        try write(Data(text.utf8), to: url, permissions: permissions)
    }

    /// A hidden sibling name for in-progress output: `.NAME.relctl-tmp-<random>`.
    public static func temporaryURL(for url: URL) -> URL {
        let name = ".\(url.lastPathComponent).relctl-tmp-\(UInt32.random(in: 0...UInt32.max))"
        return url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Creates `file` holding `data`, reporting what actually failed (a full disk is not a
    /// permission problem) under the name of the file the caller means, `reported`.
    private static func writeNew(_ data: Data, at file: URL, permissions: Int, reportedAs reported: URL) throws {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw writeError(errno, reported) }
        var failure: Int32?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += count
            }
        }
        if failure == nil, fchmod(descriptor, mode_t(permissions)) != 0 { failure = errno }
        if close(descriptor) != 0, failure == nil { failure = errno }
        if let failure { throw writeError(failure, reported) }
    }

    /// One line for a failed write: what happened and what to do.
    static func writeError(_ code: Int32, _ url: URL) -> FileSystemError {
        let reason = FileSystem.describe(errno: code)
        switch code {
        case ENOSPC, EDQUOT:
            return FileSystemError(
                path: url.path, action: "cannot write", reason: reason, advice: "; free some space and run again")
        case EACCES, EPERM, EROFS:
            return FileSystemError(
                path: url.path, action: "cannot write", reason: reason,
                advice: "; check the folder exists and is writable")
        default:
            return FileSystemError(path: url.path, action: "cannot write", reason: reason)
        }
    }

    /// Renames a finished temporary file over its destination (rename(2) is atomic on one filesystem).
    public static func commit(_ temporary: URL, to url: URL) throws {
        if rename(temporary.path, url.path) != 0 {
            throw FileSystemError(path: url.path, action: "cannot move the finished file into place", errno: errno)
        }
    }
}

/// Paths to delete if relctl is interrupted: partial archives, temporary files, scratch folders.
public final class CleanupRegistry: Sendable {
    public static let shared = CleanupRegistry()
    private let paths = Mutex<[String: Int]>([:])

    public func register(_ url: URL) {
        paths.withLock { $0[url.path, default: 0] += 1 }
    }

    public func unregister(_ url: URL) {
        paths.withLock { paths in
            if let count = paths[url.path], count > 1 { paths[url.path] = count - 1 } else { paths[url.path] = nil }
        }
    }

    /// Removes every registered path; called from the signal handler path.
    public func removeAll() {
        let current = paths.withLock { paths in
            defer { paths.removeAll() }
            return Array(paths.keys)
        }
        for path in current { try? FileSystem.remove(atPath: path) }
    }
}

/// Installs SIGINT/SIGTERM handling: stop every child, delete every registered partial file,
/// run the registered undo steps (`InterruptActions`, e.g. deleting a fresh tag), then exit 130
/// (SIGINT) or 143 (SIGTERM) as shells expect.
public enum Interrupts {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let interrupted = Mutex<Bool>(false)

    /// True once SIGINT/SIGTERM arrived and relctl is stopping; the handler ends the process.
    public static var isInterrupted: Bool { interrupted.withLock { $0 } }

    /// Called by code that just saw a child die: if that was our own interrupt, this thread waits for
    /// the handler's `exit(130)` instead of reporting a "failure" and exiting 1 first.
    public static func parkIfInterrupted() {
        while isInterrupted { sleep(1) }
    }

    public static func install(onInterrupt: @escaping @Sendable (Int32) -> Void = { _ in }) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                interrupted.withLock { $0 = true }
                ChildProcesses.shared.terminateAll()
                CleanupRegistry.shared.removeAll()
                InterruptActions.shared.runAll()
                onInterrupt(signalNumber)
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}
