import Foundation

/// A child started in the background with its output going to files, for the tests that act
/// while it runs: they wait on what it says or does (a gate), never on a clock. `wait()` ends
/// with the test's time limit like `run` does.
public final class BackgroundProcess: @unchecked Sendable {
    public let process: Process
    private let capture: URL
    private let outURL: URL
    private let errURL: URL

    /// Starts `executable` (a path) with the test process's environment plus `environment`.
    public init(
        _ executable: URL, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws {
        capture = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-test-bg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
        outURL = capture.appendingPathComponent("stdout")
        errURL = capture.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
    }

    /// The built relctl, colourless, as `relctl(_:in:)` runs it.
    public static func relctl(
        _ arguments: [String], in directory: URL, environment: [String: String] = [:]
    ) throws -> BackgroundProcess {
        try BackgroundProcess(
            relctlBinary, arguments, in: directory,
            environment: ["NO_COLOR": "1", "RELCTL_LAYER_CACHE": "off"].merging(environment) { $1 })
    }

    public var isRunning: Bool { process.isRunning }
    public var pid: Int32 { process.processIdentifier }

    /// What it has written to stderr so far.
    public var stderrSoFar: String {
        String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
    }

    /// Waits for it to exit (killing it if the test's time limit passes first) and returns its output.
    public func wait() throws -> RunResult {
        defer { try? FileManager.default.removeItem(at: capture) }
        try process.waitForExit()
        return RunResult(
            status: process.terminationStatus,
            stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
            stderr: stderrSoFar)
    }

    /// SIGKILLs it and its descendants (for a test's cleanup) and reaps it.
    public func killTree() {
        if process.isRunning { ChildTree.kill(process.processIdentifier) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: capture)
    }
}
