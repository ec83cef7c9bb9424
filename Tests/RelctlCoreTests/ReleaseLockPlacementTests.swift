import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics
@testable import RelctlRelease

/// The lock appears with its record already in it. A lock created empty and written after left an
/// empty file when a release was killed between the two (a fresh clone's kill loop hit that window
/// once), and the next release could only refuse and ask for it to be removed by hand.
@Suite("ReleaseLock placement", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleaseLockPlacementTests {
    #if os(Linux)
    /// inotify names every file opened for writing in the folder: the lock's name must only appear
    /// (linked or renamed into place), never be written through.
    @Test func theLocksNameIsNeverWrittenThrough() throws {
        try withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent(ReleaseLock.fileName)
            let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            try #require(watch >= 0)
            defer { close(watch) }
            let mask = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO)
            try #require(inotify_add_watch(watch, directory.path, mask) >= 0)

            let lock = try ReleaseLock.acquire(
                at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { _ in Issue.record("not stale") })
            let events = Self.events(from: watch)
            lock.release()

            let onLock = events.filter { $0.name == ReleaseLock.fileName }
            #expect(onLock.contains { $0.mask & UInt32(IN_CREATE) != 0 }, "events: \(events)")
            #expect(!onLock.contains { $0.mask & UInt32(IN_MODIFY | IN_CLOSE_WRITE) != 0 }, "events: \(events)")
            // The record was written somewhere: its temporary, which is gone again.
            #expect(events.contains { $0.name != ReleaseLock.fileName && $0.mask & UInt32(IN_MODIFY) != 0 })
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    struct Event: CustomStringConvertible {
        var mask: UInt32
        var name: String
        var description: String { "\(name):0x\(String(mask, radix: 16))" }
    }

    /// Reads every queued event: a 16-byte header (wd, mask, cookie, len), then `len` bytes of name.
    static func events(from descriptor: Int32) -> [Event] {
        var events: [Event] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return events }
            var offset = 0
            while offset + 16 <= count {
                func word(_ at: Int) -> UInt32 {
                    buffer[offset + at..<offset + at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
                }
                let length = Int(word(12))
                let nameBytes = buffer[offset + 16..<offset + 16 + length].prefix { $0 != 0 }
                events.append(Event(mask: word(4), name: String(decoding: nameBytes, as: UTF8.self)))
                offset += 16 + length
            }
        }
    }
    #endif

    /// Killed after the record's temporary was written, before it was linked: only the temporary
    /// is left, and the next release reclaims it and takes the lock as if nothing had happened.
    @Test func aKillBeforeTheLinkLeavesOnlyATemporaryTheNextReleaseReclaims() throws {
        try withTemporaryDirectory { directory in
            let url = directory.url.appendingPathComponent(ReleaseLock.fileName)
            let dead = try Self.deadPid()
            let leftover = directory.url.appendingPathComponent(
                ".\(ReleaseLock.fileName)\(Temporaries.marker)\(dead)-9f1c03aa")
            try Self.record(pid: dead).write(to: leftover)
            let lock = try ReleaseLock.acquire(
                at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { _ in Issue.record("nothing was held") })
            #expect(ReleaseLock.currentHolder(at: url)?.pid == getpid())
            lock.release()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }
    }

    /// Killed after the link, before the temporary was removed: the lock names the dead holder,
    /// so it is taken over as stale, and the temporary beside it is reclaimed. The same for a
    /// workspace member's lock, whose temporaries carry the member's lock name.
    @Test func aKillAfterTheLinkLeavesAWholeLockTakenOverAsStale() throws {
        try withTemporaryDirectory { directory in
            for name in [ReleaseLock.fileName, "relctl-release-core.lock"] {
                let url = directory.url.appendingPathComponent(name)
                let dead = try Self.deadPid()
                let leftover = directory.url.appendingPathComponent(".\(name)\(Temporaries.marker)\(dead)-0badc0de")
                try Self.record(pid: dead).write(to: leftover)
                #expect(link(leftover.path, url.path) == 0)
                var takenFrom: ReleaseLock.Holder?
                let lock = try ReleaseLock.acquire(
                    at: url, tag: "v1.0.0", clock: SystemClock(), onStale: { takenFrom = $0 })
                #expect(takenFrom?.pid == dead, "\(name)")
                lock.release()
                #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(name)")
            }
        }
    }

    static func record(pid: Int32) throws -> Data {
        let holder = ReleaseLock.Holder(
            pid: pid, host: ProcessInfo.processInfo.hostName, tag: "v0.9.0", started: "2026-11-27T00:00:00Z")
        return Data(try JSONOutput.encode(holder).utf8)
    }

    /// The pid of a process that has exited and been reaped.
    static func deadPid() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        try process.waitForExit()
        return process.processIdentifier
    }
}
