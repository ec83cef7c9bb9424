import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A real temporary directory, removed when the test that made it ends (`.removesTemporaries`).
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init(prefix: String = "relctl-test") throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "\(prefix)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        // Resolve /tmp symlinks so paths printed by tools compare equal.
        url = base.resolvingSymlinksInPath()
        TemporaryScope.current?.track(self)
    }

    public var path: String { url.path }

    /// Writes a file (creating folders), returning its URL. An executable is written by a child
    /// (`writeExecutable`), so relctl's children can run it at once.
    @discardableResult
    public func write(_ relativePath: String, _ contents: String, executable: Bool = false) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        if executable { try writeExecutable(contents, to: file) } else { try Data(contents.utf8).write(to: file) }
        return file
    }

    public func read(_ relativePath: String) throws -> String {
        try String(contentsOf: url.appendingPathComponent(relativePath), encoding: .utf8)
    }

    public func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url.appendingPathComponent(relativePath).path)
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs the body with a fresh temporary directory and removes it afterwards.
public func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try body(directory)
}

public func withTemporaryDirectory<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return try await body(directory)
}

/// The result of running a command.
public struct RunResult: Sendable, CustomStringConvertible {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    public var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
}

/// Writes a script that a child may run the next instant. A file this process writes itself can
/// refuse to run (ETXTBSY, "text file busy") while any child forked during the write still holds
/// the writing descriptor, until that child's own exec: under load that window is long, and
/// relctl's runner (through `env`) reports it as exit 126, not as a retry. The bytes go to a
/// sibling file first and a child `cp` writes the script itself: no process of ours ever holds
/// the script open for writing.
public func writeExecutable(_ contents: String, to file: URL) throws {
    let source = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).source")
    try Data(contents.utf8).write(to: source)
    defer { try? FileManager.default.removeItem(at: source) }
    try? FileManager.default.removeItem(at: file)
    let copied = try run("/bin/cp", [source.path, file.path])
    guard copied.status == 0 else { throw TestFailure("cp \(file.path): \(copied.stderr)") }
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
}

/// Runs any program (searched on PATH) and captures its output. A program not on PATH, or a
/// child that exits 127 (a shell's "command not found"), throws: a missing tool is a failure,
/// never a result a check could read as a rejection (`Tool`). When the test is cancelled (its
/// time limit passed) the child and its descendants are killed and this throws.
@discardableResult
public func run(
    _ executable: String, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
) throws -> RunResult {
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let executableURL =
        executable.contains("/")
        ? URL(fileURLWithPath: executable) : URL(fileURLWithPath: try Tool.path(executable, searchPath: env["PATH"]))
    // Tests wait synchronously (fixtures are built in plain functions), so they start children
    // themselves instead of through relctl's async runner. Output goes to files, which never
    // fill up the way a pipe nobody drains does.
    let capture = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-test-run-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: capture) }
    let outURL = capture.appendingPathComponent("stdout"), errURL = capture.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
    let exited = DispatchSemaphore(value: 0)
    var process = Process()
    // A script a test has just written can be busy (ETXTBSY) for a moment: a child another test
    // started at that instant inherited the writing descriptor until its own exec closes it.
    // The kernel's answer, not the program's: start again, a few times.
    for attempt in 1... {
        process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        process.terminationHandler = { _ in exited.signal() }
        do {
            try process.run()
            break
        } catch let error as NSError
            where attempt < 50
            && (error.userInfo[NSUnderlyingErrorKey] as? NSError).map({
                $0.domain == NSPOSIXErrorDomain && $0.code == Int(ETXTBSY)
            }) == true
        {
            usleep(20_000)
        }
    }
    // Woken by the exit at once; every 100 ms it looks whether the test was cancelled.
    while exited.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
        if TestCancellation.isCancelled {
            ChildTree.kill(process.processIdentifier)
            process.waitUntilExit()
            throw TestFailure("stopped `\(executable)`: the test's time limit passed")
        }
    }
    process.waitUntilExit()
    try? out.close()
    try? err.close()
    let result = RunResult(
        status: process.terminationStatus,
        stdout: String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self),
        stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self))
    if process.terminationReason == .exit, result.status == 127 {
        throw TestFailure(
            "`\(executable) \(arguments.joined(separator: " "))` exited 127, a command not found (a missing tool?"
                + " `scripts/install-deps --test`):\n\(result)")
    }
    return result
}

/// Runs a shell line with `/bin/sh -c`.
@discardableResult
public func sh(_ line: String, in directory: URL? = nil, environment: [String: String] = [:]) throws -> RunResult {
    try run("/bin/sh", ["-c", line], in: directory, environment: environment)
}

/// The built `relctl` binary: `RELCTL_BIN` if set, else next to the test bundle in the build folder.
public let relctlBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["RELCTL_BIN"] { return URL(fileURLWithPath: path) }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = directory.appendingPathComponent("relctl")
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            return candidate
        }
        directory = directory.deletingLastPathComponent()
    }
    // Fall back to the conventional debug build folder of this package.
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent(".build/debug/relctl")
}()

/// Runs the built relctl end to end, with a clean, colourless environment. The image layer cache
/// is off unless a test names one (`RELCTL_LAYER_CACHE`): each test then proves its layers are
/// built, not copied from another test's run, and the user's own cache is left alone.
@discardableResult
public func relctl(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> RunResult {
    var env = ["NO_COLOR": "1", "RELCTL_LAYER_CACHE": "off"]
    for (key, value) in environment { env[key] = value }
    return try run(relctlBinary.path, arguments, in: directory, environment: env)
}

/// Runs a program and says how many bytes it read, with every child it waited for: the `rchar`
/// of the shell that ran it (Linux adds a reaped child's read counts to its parent's), so a test
/// asserts on what was read rather than on how long it took.
public func runCountingReads(
    _ executable: String, _ arguments: [String], in directory: URL, environment: [String: String] = [:]
) throws -> (result: RunResult, bytesRead: Int) {
    let counts = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-test-io-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: counts) }
    let result = try run(
        "/bin/sh",
        ["-c", #""$0" "$@"; status=$?; grep '^rchar:' /proc/$$/io > "$RELCTL_TEST_IO"; exit $status"#, executable]
            + arguments, in: directory, environment: environment.merging(["RELCTL_TEST_IO": counts.path]) { $1 })
    let line = try String(contentsOf: counts, encoding: .utf8)
    guard let bytes = Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        throw TestFailure("no read count in /proc/PID/io: \(line)")
    }
    return (result, bytes)
}

/// A real git repository in a temporary directory, with a fixed identity and dates so hashes are stable.
public struct GitRepository: Sendable {
    public let directory: TemporaryDirectory
    public var url: URL { directory.url }

    /// Creates a repository on branch `main`.
    public init(directory: TemporaryDirectory? = nil) throws {
        self.directory = try directory ?? TemporaryDirectory(prefix: "relctl-git")
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "Test User")
        try git("config", "user.email", "test@example.com")
        try git("config", "commit.gpgsign", "false")
        try git("config", "tag.gpgsign", "false")
    }

    public static let fixedEnvironment: [String: String] = [
        "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z",
        "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z",
    ]

    /// Runs git in the repository; throws if it fails.
    @discardableResult
    public func git(_ arguments: String..., environment: [String: String] = [:]) throws -> String {
        try git(arguments, environment: environment)
    }

    @discardableResult
    public func git(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        var env = Self.fixedEnvironment
        for (key, value) in environment { env[key] = value }
        let result = try run("git", arguments, in: url, environment: env)
        guard result.status == 0 else {
            throw TestFailure("git \(arguments.joined(separator: " ")) failed: \(result.stderr)")
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes files, stages everything and commits; returns the new commit hash.
    @discardableResult
    public func commit(_ message: String, files: [String: String] = [:], date: String? = nil) throws -> String {
        for (path, contents) in files { try directory.write(path, contents) }
        try git("add", "-A")
        var env: [String: String] = [:]
        if let date { env = ["GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date] }
        try git(["commit", "-q", "--allow-empty", "-m", message], environment: env)
        return try git("rev-parse", "HEAD")
    }

    /// Creates a bare repository and adds it as `origin`.
    @discardableResult
    public func addBareRemote(name: String = "origin") throws -> TemporaryDirectory {
        let bare = try TemporaryDirectory(prefix: "relctl-remote")
        let result = try run("git", ["init", "-q", "--bare", "-b", "main", bare.path])
        guard result.status == 0 else { throw TestFailure("git init --bare failed: \(result.stderr)") }
        try git("remote", "add", name, bare.path)
        return bare
    }
}
