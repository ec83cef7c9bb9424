import Foundation

/// Everything core code needs from the outside world, handed in rather than reached for, so
/// tests can run real commands against their own temporary directories and sinks.
public struct Context: Sendable {
    /// The directory relative paths are resolved against (the project root for most commands).
    public var workingDirectory: URL
    /// The environment child processes inherit and settings such as `SOURCE_DATE_EPOCH` come from.
    package var environment: [String: String]
    public var console: Console
    package var processes: any ProcessRunning
    package var clock: any WallClock
    /// Every HTTP request relctl sends (registries, forges, channels) goes through this client, under
    /// the shared policy in `Network/`; a test hands in a stand-in's or a fault-injecting one.
    /// The process's session is made on first use only: creating a URLSession reads `Bundle.main`,
    /// which traps when the executable's folder cannot be read (a binary run as another user), so a
    /// command that sends nothing must never create one.
    package var http: any HTTPClient {
        get { httpClient ?? URLSessionHTTPClient.shared }
        set { httpClient = newValue }
    }
    private var httpClient: (any HTTPClient)?

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

/// The clock is used only for durations and progress, never for anything written into an
/// artifact (those use `SOURCE_DATE_EPOCH` or commit times).
public protocol WallClock: Sendable {
    func now() -> Date
}

extension WallClock {
    /// Seconds elapsed since `start`, for reports.
    package func seconds(since start: Date) -> Double { now().timeIntervalSince(start) }
}

/// The real clock.
public struct SystemClock: WallClock {
    public init() {}
    public func now() -> Date { Date() }
}
