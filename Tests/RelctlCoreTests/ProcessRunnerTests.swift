import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// The one process runner: capture, stdin, and the gate that keeps a child from acting before
/// relctl has recorded it.
@Suite("ProcessRunner", .timeLimit(.minutes(30)), .removesTemporaries)
struct ProcessRunnerTests {
    @Test func inputReachesTheChildAndBothStreamsAreCaptured() async throws {
        let result = try await ProcessRunner().run(
            Command("/bin/sh", ["-c", "tr a-z A-Z; echo done >&2; exit 3"], input: Data("registry.example\n".utf8)))
        #expect(result.status == 3)
        #expect(result.stdoutText == "REGISTRY.EXAMPLE\n")
        #expect(result.stderrText == "done\n")
    }

    /// A bare name is found on PATH as execvp finds it (the first executable regular file) and
    /// exec'd directly; what execvp would resolve against the working directory (an empty or
    /// relative entry) is left to env, as is a name found nowhere.
    @Test func aBareNameIsFoundOnPathAsExecvpWould() async throws {
        try await withTemporaryDirectory { directory in
            let first = directory.url.appendingPathComponent("first")
            let second = directory.url.appendingPathComponent("second")
            let third = directory.url.appendingPathComponent("third")
            for folder in [first, second, third] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            }
            // Not executable, then a folder of that name, then the real one.
            try Data("#!/bin/sh\necho wrong\n".utf8).write(to: first.appendingPathComponent("tool"))
            try FileManager.default.createDirectory(
                at: second.appendingPathComponent("tool"), withIntermediateDirectories: true)
            let real = third.appendingPathComponent("tool")
            try writeExecutable("#!/bin/sh\necho \"right $1\"\n", to: real)
            let path = [first, second, third].map(\.path).joined(separator: ":") + ":/usr/bin:/bin"
            #expect(ProcessRunner.searchPath(for: "tool", path: path)?.path == real.path)
            #expect(ProcessRunner.searchPath(for: "tool", path: "relative:" + path) == nil)
            #expect(ProcessRunner.searchPath(for: "tool", path: path + "::") == nil)
            #expect(ProcessRunner.searchPath(for: "no-such-tool", path: path) == nil)
            let result = try await ProcessRunner().run(Command("tool", ["x"], environment: ["PATH": path]))
            #expect(result.status == 0 && result.stdoutText == "right x\n", "\(result.stderrText)")
            let missing = try await ProcessRunner().run(Command("no-such-tool", [], environment: ["PATH": path]))
            #expect(missing.status == 127, "env reports a name found nowhere")
        }
    }

    /// The gate holds the command until a line arrives on stdin, which the runner writes only
    /// after the launch observer (the release lock's pid record) has returned. Driven by hand
    /// here, since the observer is process-wide and other suites run beside this one. No clock:
    /// the test waits until the gate's shell is blocked reading its stdin (the kernel says so in
    /// /proc/PID/syscall), by when an ungated command would have run, and looks that it has not.
    @Test func aGatedChildStartsOnlyWhenTheGateOpens() throws {
        try withTemporaryDirectory { directory in
            let marker = directory.url.appendingPathComponent("ran")
            let gated = Command("/bin/sh", ["-c", "touch '\(marker.path)'; echo $$"]).gated()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: gated.executable)
            process.arguments = gated.arguments
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            let pid = process.processIdentifier
            let blocked = MatrixFixtures.waitUntil(seconds: 120) {
                Self.isBlockedReadingStdin(pid) || !process.isRunning
            }
            #expect(blocked && process.isRunning, "the gate's shell waits on its stdin")
            #expect(!FileManager.default.fileExists(atPath: marker.path), "the command ran before the gate opened")
            input.fileHandleForWriting.write(gated.input ?? Data())
            try input.fileHandleForWriting.close()
            // Wait first (the time limit can end that wait; a read to the end cannot be cut short):
            // one line of output fits the pipe's buffer, so the child never blocks on it.
            try process.waitForExit()
            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n")
            #expect(process.terminationStatus == 0)
            #expect(FileManager.default.fileExists(atPath: marker.path), "the command ran once the gate opened")
            // `exec` keeps the pid: the child relctl records is the one that does the work.
            #expect(lines.count == 1 && Int32(lines[0]) == pid, "\(lines)")
        }
    }

    /// True while `pid` sits in read(2) on descriptor 0 (/proc/PID/syscall: the call's number,
    /// then its first argument; read is 0 on x86_64 and 63 on arm64).
    static func isBlockedReadingStdin(_ pid: Int32) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8) else { return false }
        let fields = text.split(separator: " ")
        #if arch(arm64)
        let read = "63"
        #else
        let read = "0"
        #endif
        return fields.count > 1 && fields[0] == read && fields[1] == "0x0"
    }

    /// A relctl killed before it opens the gate closes the child's stdin: the command never runs.
    @Test func aGateThatIsNeverOpenedRunsNothing() throws {
        try withTemporaryDirectory { directory in
            let marker = directory.url.appendingPathComponent("ran")
            let gated = Command("/bin/sh", ["-c", "touch '\(marker.path)'"]).gated()
            let result = try run(gated.executable, gated.arguments, in: directory.url)  // stdin: /dev/null
            #expect(result.status == 125, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: marker.path))
        }
    }
}
