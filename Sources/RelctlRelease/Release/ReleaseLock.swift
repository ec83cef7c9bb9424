import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

/// `.git/relctl-release.lock`: stops a second release in the same repository. It records who
/// holds it and, as the release goes on, how far it got (the commit, the tag object it created,
/// where it pushed it, the files it moved into dist/), so that a release killed outright (SIGKILL,
/// power loss) can be recovered by the next one (`ReleaseRecovery`). A lock left by a dead process
/// on this host is taken over with a warning.
final class ReleaseLock: Sendable {
    static let fileName = "relctl-release.lock"

    /// The lock's file name for `config`: a `[workspace]` member has its own
    /// (`relctl-release-NAME.lock`), so `release --pending` can hold every member's release open
    /// until all are tagged, while two releases of one project still exclude each other.
    static func fileName(for config: RelctlConfig) -> String {
        guard let member = config.workspaceMember else { return fileName }
        let safe = String(
            member.unicodeScalars.map { scalar -> Character in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
                    ? Character(scalar) : "_"
            })
        return "relctl-release-\(safe).lock"
    }

    /// Who holds a lock, as written in the file, and how far its release got.
    struct Holder: Sendable, Equatable, Codable {
        var pid: Int32
        var host: String
        var tag: String
        /// ISO 8601 time the holder started.
        var started: String
        /// The holder's process as `ProcessStart` names it, so that another process given the same
        /// pid later is not taken for the holder. Nil in locks written before it was recorded.
        var process: String?
        /// The commit being released.
        var commit: String?
        /// True from just before `git tag` runs: a tag may exist without `tagObject` recorded yet.
        var tagging: Bool?
        /// The annotated tag object this release created.
        var tagObject: String?
        /// The remote a push of the tag was started to.
        var pushing: String?
        /// True once the push went through.
        var pushed: Bool?
        /// Process groups of children (`git tag`, `git push`) that outlive a killed holder.
        var children: [Int32]?
        /// Each child's process as `ProcessStart` names it, by its process group: a group whose
        /// leader is a later process with the same pid is not the killed holder's child.
        var childStarts: [String: String]?
        /// The files being moved from the staging folder into dist/.
        var distFiles: [String]?
        /// True once dist/ is complete: the release is out.
        var sealed: Bool?

        init(pid: Int32, host: String, tag: String, started: String, commit: String? = nil) {
            self.pid = pid
            self.host = host
            self.tag = tag
            self.started = started
            self.commit = commit
        }

        var summary: String { "relctl release \(tag) (pid \(pid) on \(host), started \(started))" }

        /// True when the holder ran on this host and its process no longer exists: gone, or its
        /// pid now belongs to a process that started later.
        var isStale: Bool {
            guard host == ReleaseLock.hostName else { return false }
            return Temporaries.isGone(pid) || ProcessStart.isReused(pid, recorded: process)
        }

        /// The same holder, whatever progress it recorded since.
        func isSameHolder(as other: Holder) -> Bool {
            pid == other.pid && host == other.host && started == other.started
        }
    }

    let url: URL
    private let state: Mutex<Holder>

    /// The holder as last recorded.
    var holder: Holder { state.withLock { $0 } }

    private init(url: URL, holder: Holder) {
        self.url = url
        self.state = Mutex(holder)
    }

    static var hostName: String { ProcessInfo.processInfo.hostName }

    /// The lock's path for the repository holding `directory`.
    static func url(for git: Git) async throws -> URL {
        await url(commonDirectory: try git.commonDirectory())
    }

    /// The lock in a repository whose git directory is already known.
    static func url(commonDirectory: URL, name: String = fileName) -> URL {
        commonDirectory.appendingPathComponent(name)
    }

    /// The lock of the repository holding `directory`, found without starting git: the nearest
    /// `.git` folder, or the common git directory a linked worktree's `.git` file leads to. Nil
    /// when there is none (then no release can have left a lock there).
    static func url(near directory: URL, name: String = fileName) -> URL? {
        var folder = directory.standardizedFileURL
        while true {
            let dotGit = folder.appendingPathComponent(".git")
            if let kind = FileSystem.kind(of: dotGit) {
                guard kind != .directory else { return url(commonDirectory: dotGit, name: name) }
                // A linked worktree: `gitdir: PATH`, whose `commondir` names the shared git directory.
                guard let text = try? String(contentsOf: dotGit, encoding: .utf8), text.hasPrefix("gitdir: ") else {
                    return nil
                }
                let path = text.dropFirst("gitdir: ".count).trimmingCharacters(in: .whitespacesAndNewlines)
                let gitDirectory = resolve(path, in: folder)
                guard
                    let common = try? String(
                        contentsOf: gitDirectory.appendingPathComponent("commondir"), encoding: .utf8)
                else { return url(commonDirectory: gitDirectory, name: name) }
                let commonPath = common.trimmingCharacters(in: .whitespacesAndNewlines)
                return url(commonDirectory: resolve(commonPath, in: gitDirectory), name: name)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    private static func resolve(_ path: String, in base: URL) -> URL {
        AbsolutePath(path, relativeTo: AbsolutePath(base)).url
    }

    /// Reads the current holder, if any (an unreadable file counts as held by an unknown process).
    static func currentHolder(at url: URL) -> Holder? {
        guard let data = FileSystem.contents(of: url) else { return nil }
        return (try? JSONDecoder().decode(Holder.self, from: data))
            ?? Holder(pid: 0, host: "unknown host", tag: "unknown tag", started: "unknown time")
    }

    /// Takes the lock or throws `ReleaseError.locked` naming the holder. A stale lock is taken
    /// over and `onStale` is told whose it was.
    static func acquire(
        at url: URL, tag: String, commit: String? = nil, clock: any WallClock, onStale: (Holder) -> Void
    ) throws -> ReleaseLock {
        var me = Holder(
            pid: getpid(), host: hostName, tag: tag, started: ISO8601DateFormatter().string(from: clock.now()),
            commit: commit)
        me.process = ProcessStart.token(of: getpid())
        let data = try JSONOutput.encode(me)
        // Records of a killed holder that never reached their rename or link.
        Temporaries.reclaim(in: url.deletingLastPathComponent(), prefix: ".\(url.lastPathComponent)")
        for _ in 0..<2 {
            // The record is written whole to a temporary first and then linked to the lock's name:
            // link(2) fails when the name exists, so two releases racing cannot both succeed, and
            // the lock never exists without its record (a kill between creating a lock and writing
            // it left an empty one that the next release could only refuse). Registered for
            // cleanup as it appears, so Ctrl-C at any moment leaves no lock behind.
            if try AtomicFile.create(Data(data.utf8), at: url, action: "cannot create the release lock") {
                return ReleaseLock(url: url, holder: me)
            }
            if let unreadable = unreadableLock(at: url) { throw unreadable }
            guard let holder = currentHolder(at: url) else { continue }
            guard holder.isStale else { throw ReleaseError.locked(path: url.path, holder: holder) }
            onStale(holder)
            try? FileSystem.remove(url)
        }
        throw ReleaseError.lockRace(path: url.path)
    }

    /// Records progress in the lock file (atomically), for the recovery of a killed release. A
    /// lock that cannot be rewritten loses only that: the release goes on.
    func record(_ change: (inout Holder) -> Void) {
        state.withLock { holder in
            change(&holder)
            guard let data = try? JSONOutput.encode(holder) else { return }
            try? AtomicFile.write(data, to: url)
        }
    }

    /// Records the process group of every child started while `body` runs (a `git push` goes on
    /// after relctl is killed; the next release waits for it before judging what it left).
    func recordingChildren<T>(_ body: () async throws -> T) async rethrows -> T {
        ChildProcesses.shared.observeLaunches { [self] pid in
            let start = ProcessStart.token(of: pid)
            record {
                $0.children = ($0.children ?? []) + [pid]
                if let start { $0.childStarts = ($0.childStarts ?? [:]).merging([String(pid): start]) { _, new in new } }
            }
        }
        defer { ChildProcesses.shared.observeLaunches(nil) }
        return try await body()
    }

    /// Puts `holder` (a killed release's record this run will not recover) back into the file and
    /// lets go of it without removing it, so the release that can recover it still finds it.
    func handBack(_ holder: Holder) {
        state.withLock { _ in
            if let data = try? JSONOutput.encode(holder) { try? AtomicFile.write(data, to: url) }
        }
        CleanupRegistry.shared.unregister(url)
    }

    /// True while the record says a tag is out (pushed) but the release is not finished: then the
    /// lock must outlive this process, so that the next release resumes it.
    var holdsUnfinishedPushedTag: Bool {
        let me = holder
        return me.pushed == true && me.sealed != true
    }

    /// Keeps the lock file when relctl is interrupted (a resumed release: its tag is out, and only
    /// the record in the lock lets the next run finish it).
    func keepOnInterrupt() {
        CleanupRegistry.shared.unregister(url)
    }

    /// Removes the lock (only if it is still ours), unless it records a pushed tag whose release
    /// is unfinished: then it stays, and the next release resumes from it.
    func release() {
        let me = holder
        if !holdsUnfinishedPushedTag, let current = ReleaseLock.currentHolder(at: url), current.isSameHolder(as: me) {
            try? FileSystem.remove(url)
        }
        CleanupRegistry.shared.unregister(url)
    }
}
