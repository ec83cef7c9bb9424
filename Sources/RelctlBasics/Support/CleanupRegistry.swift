import Foundation
import Synchronization

/// Paths to delete if relctl is interrupted: partial archives, temporary files, scratch folders.
/// Once an interrupt began removing them, nothing new is registered or created through here: the
/// thread asking waits for the handler's exit, so no temporary appears after the cleanup.
package final class CleanupRegistry: Sendable {
    package static let shared = CleanupRegistry()
    private struct State {
        var paths: [String: Int] = [:]
        var closed = false
    }
    private let state = Mutex(State())

    package func register(_ url: URL) {
        let closed = state.withLock { state in
            if !state.closed { state.paths[url.path, default: 0] += 1 }
            return state.closed
        }
        if closed { Interrupts.parkIfInterrupted() }
    }

    package func unregister(_ url: URL) {
        state.withLock { state in
            if let count = state.paths[url.path], count > 1 {
                state.paths[url.path] = count - 1
            } else {
                state.paths[url.path] = nil
            }
        }
    }

    /// Creates a new file with open(2) (`O_CREAT | O_EXCL`, write-only or, when `readable`, read and
    /// write, close-on-exec) and registers it, in one step an interrupt cannot split: either the
    /// file exists and the cleanup removes it, or it is never created. Returns the descriptor, or
    /// -1 with `errno` set.
    package func create(_ url: URL, mode: mode_t = 0o644, readable: Bool = false) -> Int32 {
        let (descriptor, error, closed) = state.withLock { state -> (Int32, Int32, Bool) in
            guard !state.closed else { return (-1, EINTR, true) }
            let descriptor = open(url.path, (readable ? O_RDWR : O_WRONLY) | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            let error = errno
            if descriptor >= 0 { state.paths[url.path, default: 0] += 1 }
            return (descriptor, error, false)
        }
        if closed { Interrupts.parkIfInterrupted() }
        errno = error
        return descriptor
    }

    /// Creates a new folder (its parents must exist) and registers it, in one step as `create`.
    package func makeDirectory(_ url: URL, mode: mode_t = 0o755) throws {
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
    package func appear(_ url: URL, by body: () -> Int32) -> Int32 {
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
    package func removeAll() {
        let current = state.withLock { state in
            state.closed = true
            defer { state.paths.removeAll() }
            return Array(state.paths.keys)
        }
        for path in current { try? FileSystem.remove(atPath: path) }
    }
}
