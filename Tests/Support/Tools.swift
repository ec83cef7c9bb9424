import Foundation
import RelctlBasics
import Synchronization

/// The outside tools the tests read relctl's output with. A test that needs one fails when it is
/// missing: it never turns into a pass or a skip (docs/development.md, "Tests that cannot go green
/// by accident"). `run` looks every bare program name up here, so `run("lintian", …)` on a machine
/// without lintian throws naming it instead of returning exit 127, which a check expecting a
/// rejection would take for one.
public enum Tool {
    /// The absolute path of `name` on `searchPath` (the test process's PATH when nil), or a
    /// thrown failure naming the tool and `scripts/install-deps --test`.
    public static func path(_ name: String, searchPath: String? = nil) throws -> String {
        if let found = find(name, searchPath: searchPath) { return found }
        throw TestFailure(
            "`\(name)` is not installed (not found on PATH): `scripts/install-deps --test` installs the test tools;"
                + " a test that needs it fails rather than skips")
    }

    /// The tool's path, or nil: for the few places that look a tool up to copy it (a PATH of
    /// chosen tools), never to decide whether a test runs.
    public static func find(_ name: String, searchPath: String? = nil) -> String? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = "\(directory)/\(name)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }
}

/// A test's cancellation, seen from any thread. Swift Testing cancels a test's task when its
/// `.timeLimit` passes (after recording the failure); the waits on children (`run`,
/// `Process.waitForExit()`) check this and kill the child and its descendants, so a child that
/// hangs ends its test at the limit instead of holding the whole run. A task's own cancellation
/// does not reach the thread `TemporaryScope.blocking` hands work to; this flag does.
public final class TestCancellation: Sendable {
    @TaskLocal public static var current: TestCancellation?

    private let cancelled = Atomic<Bool>(false)

    public init() {}

    public func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// True once the running test was cancelled: its task, or the task that handed this thread work.
    public static var isCancelled: Bool {
        Task.isCancelled || (current?.cancelled.load(ordering: .relaxed) ?? false)
    }
}

extension Process {
    /// Waits for the child to exit. When the test is cancelled meanwhile (its time limit passed),
    /// kills the child and everything it started, and throws.
    public func waitForExit() throws {
        while isRunning {
            if TestCancellation.isCancelled {
                ChildTree.kill(processIdentifier)
                waitUntilExit()
                throw TestFailure(
                    "stopped \(executableURL?.lastPathComponent ?? "a child"): the test's time limit passed")
            }
            usleep(10_000)
        }
        waitUntilExit()
    }
}

public enum ChildTree {
    /// SIGKILLs a process and its descendants (found through /proc's `children` lists), the
    /// descendants first collected so none is missed as its parent dies.
    public static func kill(_ pid: Int32) {
        var all: [Int32] = []
        var queue = [pid]
        while let next = queue.popLast() {
            all.append(next)
            queue += children(of: next)
        }
        for member in all { Foundation.kill(member, SIGKILL) }
    }

    static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task -> [Int32] in
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }
}
