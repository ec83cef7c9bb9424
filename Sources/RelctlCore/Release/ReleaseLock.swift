import Foundation

/// `.git/relctl-release.lock`: stops a second release in the same repository. It records who
/// holds it; a lock left by a dead process on this host is taken over with a warning.
public final class ReleaseLock: Sendable {
    public static let fileName = "relctl-release.lock"

    /// Who holds a lock, as written in the file.
    public struct Holder: Sendable, Equatable, Codable {
        public var pid: Int32
        public var host: String
        public var tag: String
        /// ISO 8601 time the holder started.
        public var started: String

        public init(pid: Int32, host: String, tag: String, started: String) {
            self.pid = pid
            self.host = host
            self.tag = tag
            self.started = started
        }

        public var summary: String { "relctl release \(tag) (pid \(pid) on \(host), started \(started))" }

        /// True when the holder ran on this host and its process no longer exists.
        public var isStale: Bool {
            guard host == ReleaseLock.hostName else { return false }
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            return Self.isZombie(pid)
        }

        /// A killed release whose parent died too (a train killed with it) stays a zombie until
        /// something reaps it, and some container inits never do; it has exited all the same.
        static func isZombie(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
            return state == "Z" || state == "X"
        }
    }

    public let url: URL
    public let holder: Holder

    private init(url: URL, holder: Holder) {
        self.url = url
        self.holder = holder
    }

    static var hostName: String { ProcessInfo.processInfo.hostName }

    /// The lock's path for the repository holding `directory`.
    public static func url(for git: Git) throws -> URL {
        url(commonDirectory: try git.commonDirectory())
    }

    /// The lock in a repository whose git directory is already known.
    public static func url(commonDirectory: URL) -> URL {
        commonDirectory.appendingPathComponent(fileName)
    }

    /// Reads the current holder, if any (an unreadable file counts as held by an unknown process).
    public static func currentHolder(at url: URL) -> Holder? {
        guard let data = FileSystem.contents(of: url) else { return nil }
        return (try? JSONDecoder().decode(Holder.self, from: data))
            ?? Holder(pid: 0, host: "unknown host", tag: "unknown tag", started: "unknown time")
    }

    /// Takes the lock or throws `ReleaseError.locked` naming the holder. A stale lock is taken
    /// over and `onStale` is told whose it was.
    public static func acquire(
        at url: URL, tag: String, clock: any WallClock, onStale: (Holder) -> Void
    ) throws -> ReleaseLock {
        let me = Holder(
            pid: getpid(), host: hostName, tag: tag, started: ISO8601DateFormatter().string(from: clock.now()))
        let data = try JSONOutput.encode(me)
        for _ in 0..<2 {
            // O_EXCL makes creation the test: two releases racing cannot both succeed.
            let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL, 0o644)
            if fd >= 0 {
                _ = data.withCString { write(fd, $0, strlen($0)) }
                close(fd)
                CleanupRegistry.shared.register(url)
                return ReleaseLock(url: url, holder: me)
            }
            guard errno == EEXIST else {
                throw FileSystemError(path: url.path, action: "cannot create the release lock", errno: errno)
            }
            if let unreadable = unreadableLock(at: url) { throw unreadable }
            guard let holder = currentHolder(at: url) else { continue }
            guard holder.isStale else { throw ReleaseError.locked(path: url.path, holder: holder) }
            onStale(holder)
            try? FileSystem.remove(url)
        }
        throw ReleaseError.lockRace(path: url.path)
    }

    /// Removes the lock (only if it is still ours).
    public func release() {
        if ReleaseLock.currentHolder(at: url) == holder { try? FileSystem.remove(url) }
        CleanupRegistry.shared.unregister(url)
    }
}
