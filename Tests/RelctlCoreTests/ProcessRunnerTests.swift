import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing
@testable import RelctlBasics
@testable import RelctlCore
@testable import RelctlRelease

/// The one process runner: capture, stdin, and the gate that keeps a child from acting before
/// relctl has recorded it.
@Suite("ProcessRunner", .removesTemporaries)
struct ProcessRunnerTests {
    @Test func inputReachesTheChildAndBothStreamsAreCaptured() async throws {
        let result = try await ProcessRunner().run(
            Command("/bin/sh", ["-c", "tr a-z A-Z; echo done >&2; exit 3"], input: Data("registry.example\n".utf8)))
        #expect(result.status == 3)
        #expect(result.stdoutText == "REGISTRY.EXAMPLE\n")
        #expect(result.stderrText == "done\n")
    }

    /// The gate holds the command until a line arrives on stdin, which the runner writes only
    /// after the launch observer (the release lock's pid record) has returned. Driven by hand
    /// here, since the observer is process-wide and other suites run beside this one.
    @Test func aGatedChildStartsOnlyWhenTheGateOpens() throws {
        let gated = Command("/bin/sh", ["-c", "echo $$; date +%s.%N"]).gated()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gated.executable)
        process.arguments = gated.arguments
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        usleep(300_000)
        let opened = Date().timeIntervalSince1970
        input.fileHandleForWriting.write(gated.input ?? Data())
        try input.fileHandleForWriting.close()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let began = try #require(lines.count == 2 ? Double(lines[1]) : nil, "\(lines)")
        #expect(began >= opened, "the command began \(opened - began) s before the gate opened")
        // `exec` keeps the pid: the child relctl records is the one that does the work.
        #expect(Int32(lines[0]) == process.processIdentifier)
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
