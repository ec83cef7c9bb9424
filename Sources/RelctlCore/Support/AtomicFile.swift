import Foundation
import Synchronization

/// Writes that either complete or leave nothing: data goes to a hidden temporary file in the
/// destination folder, which is renamed over the destination only once fully written.
public enum AtomicFile {
    /// Writes `data` to `url` atomically, creating the parent folder if needed. The temporary is
    /// relctl's own (`Temporaries` naming, created with open(2), registered for cleanup before it
    /// exists): no library writes a temporary of its own whose name relctl would not know.
    public static func write(_ data: Data, to url: URL, permissions: Int = 0o644) throws {
        let directory = url.deletingLastPathComponent()
        do { try FileSystem.createDirectory(directory) } catch {
            throw FileSystemError(error, path: directory.path, action: "cannot create the folder")
        }
        let temporary = temporaryURL(for: url)
        let descriptor = CleanupRegistry.shared.create(temporary, mode: mode_t(permissions))
        guard descriptor >= 0 else { throw writeError(errno, url) }
        defer { CleanupRegistry.shared.unregister(temporary) }
        do {
            try writeAll(data, to: descriptor, reportedAs: url)
            // The mode asked for, whatever the umask.
            _ = fchmod(descriptor, mode_t(permissions))
            if close(descriptor) != 0 { throw writeError(errno, url) }
            try commit(temporary, to: url)
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    /// write(2) until every byte is out; closes the descriptor on failure.
    static func writeAll(_ data: Data, to descriptor: Int32, reportedAs url: URL) throws {
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
    static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(Temporaries.name(".\(url.lastPathComponent)"))
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
    static func commit(_ temporary: URL, to url: URL) throws {
        if rename(temporary.path, url.path) != 0 {
            throw FileSystemError(path: url.path, action: "cannot move the finished file into place", errno: errno)
        }
    }
}

/// Paths to delete if relctl is interrupted: partial archives, temporary files, scratch folders.
/// Once an interrupt began removing them, nothing new is registered or created through here: the
/// thread asking waits for the handler's exit, so no temporary appears after the cleanup.
final class CleanupRegistry: Sendable {
    static let shared = CleanupRegistry()
    private struct State {
        var paths: [String: Int] = [:]
        var closed = false
    }
    private let state = Mutex(State())

    func register(_ url: URL) {
        let closed = state.withLock { state in
            if !state.closed { state.paths[url.path, default: 0] += 1 }
            return state.closed
        }
        if closed { Interrupts.parkIfInterrupted() }
    }

    func unregister(_ url: URL) {
        state.withLock { state in
            if let count = state.paths[url.path], count > 1 {
                state.paths[url.path] = count - 1
            } else {
                state.paths[url.path] = nil
            }
        }
    }

    /// Creates a new file with open(2) (`O_CREAT | O_EXCL`, write-only, close-on-exec) and registers
    /// it, in one step an interrupt cannot split: either the file exists and the cleanup removes it,
    /// or it is never created. Returns the descriptor, or -1 with `errno` set.
    func create(_ url: URL, mode: mode_t = 0o644) -> Int32 {
        let (descriptor, error, closed) = state.withLock { state -> (Int32, Int32, Bool) in
            guard !state.closed else { return (-1, EINTR, true) }
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            let error = errno
            if descriptor >= 0 { state.paths[url.path, default: 0] += 1 }
            return (descriptor, error, false)
        }
        if closed { Interrupts.parkIfInterrupted() }
        errno = error
        return descriptor
    }

    /// Creates a new folder (its parents must exist) and registers it, in one step as `create`.
    func makeDirectory(_ url: URL, mode: mode_t = 0o755) throws {
        let (result, error, closed) = state.withLock { state -> (Int32, Int32, Bool) in
            guard !state.closed else { return (-1, EINTR, true) }
            let result = mkdir(url.path, mode)
            let error = errno
            if result == 0 { state.paths[url.path, default: 0] += 1 }
            return (result, error, false)
        }
        if closed { Interrupts.parkIfInterrupted() }
        guard result == 0 else {
            throw FileSystemError(path: url.path, action: "cannot create the folder", errno: error)
        }
    }

    /// Runs `body`, a link(2) or rename(2) that makes `url` appear, and registers `url` when it
    /// returns 0, in one step as `create`. Returns what `body` returned, with its `errno`.
    func appear(_ url: URL, by body: () -> Int32) -> Int32 {
        let (result, error, closed) = state.withLock { state -> (Int32, Int32, Bool) in
            guard !state.closed else { return (-1, EINTR, true) }
            let result = body()
            let error = errno
            if result == 0 { state.paths[url.path, default: 0] += 1 }
            return (result, error, false)
        }
        if closed { Interrupts.parkIfInterrupted() }
        errno = error
        return result
    }

    /// Removes every registered path; called from the signal handler path.
    func removeAll() {
        let current = state.withLock { state in
            state.closed = true
            defer { state.paths.removeAll() }
            return Array(state.paths.keys)
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
    static var isInterrupted: Bool { interrupted.withLock { $0 } }

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
