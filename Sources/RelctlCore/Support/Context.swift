import Foundation

/// Everything core code needs from the outside world, handed in rather than reached for, so
/// tests can run real commands against their own temporary directories and sinks.
public struct Context: Sendable {
    /// The directory relative paths are resolved against (the project root for most commands).
    public var workingDirectory: URL
    /// The environment child processes inherit and settings such as `SOURCE_DATE_EPOCH` come from.
    var environment: [String: String]
    public var console: Console
    var processes: any ProcessRunning
    var clock: any WallClock

    public init(
        workingDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .silent,
        processes: any ProcessRunning = ProcessRunner(),
        clock: any WallClock = SystemClock()
    ) {
        self.workingDirectory = workingDirectory.standardizedFileURL
        self.environment = environment
        self.console = console
        self.processes = processes
        self.clock = clock
    }

    /// Resolves a user-given path against the working directory.
    public func resolve(_ path: String) -> URL {
        AbsolutePath(path, relativeTo: AbsolutePath(workingDirectory)).url
    }

}
