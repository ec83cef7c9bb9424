import Foundation
import Synchronization

/// The kinds of work a release's time goes to, as `--profile` reports them.
public enum WorkKind: String, CaseIterable, Sendable {
    /// From the exec to the command's start: loading relctl and its libraries, parsing arguments.
    case processStart = "process start"
    case configuration = "configuration"
    case git = "git"
    case processes = "other processes"
    case fileWalk = "file walk"
    case ignoreCheck = "ignore check"
    case compression = "compression"
    case hashing = "hashing"
    case sbom = "SBOM"
    case writes = "writes"
}

/// Where a run's time goes (`relctl release --profile`, or `RELCTL_PROFILE=1` for any command):
/// wall and CPU seconds per stage, and per kind of work inside them. Off by default, and then a
/// measured call costs one relaxed atomic load.
///
/// Kinds overlap stages and each other (compression runs on several threads at once, and its
/// chunks are hashed on the way), so their wall times add up to more than the run: a kind's wall
/// time is the sum over the calls measured, its CPU time the calling threads' own CPU
/// (`CLOCK_THREAD_CPUTIME_ID`). A child process's CPU is its own, not relctl's: processes show
/// wall time and a count.
public final class WorkProfile: Sendable {
    public static let shared = WorkProfile()

    struct Tally: Sendable {
        var wall: Double = 0
        var cpu: Double = 0
        var count = 0
    }

    struct Section: Sendable {
        var name: String
        /// Seconds from the run's start to the stage's: stages of a release may overlap.
        var start: Double
        var wall: Double
        var cpu: Double
    }

    private let enabled = Atomic<Bool>(false)
    private let tallies = Mutex<[WorkKind: Tally]>([:])
    private let sections = Mutex<[Section]>([])
    private let started = Mutex<(wall: Double, cpu: Double)>((0, 0))

    init() {}

    /// Switches measuring on (the `--profile` flag, or `RELCTL_PROFILE` set to anything but empty
    /// or `0` in `environment`); the run's clock starts here.
    public func enable(flag: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let fromEnvironment = environment["RELCTL_PROFILE"].map { !$0.isEmpty && $0 != "0" } ?? false
        guard flag || fromEnvironment else { return }
        let now = Self.wallNow(), cpu = Self.processCPU()
        // The whole run counts from the exec, as a timer around the command would; without
        // /proc it counts from here and no start-up is shown.
        if let exec = Self.execWall(now: now) {
            started.withLock { $0 = (exec, 0) }
            add(.processStart, wall: now - exec, cpu: cpu)
        } else {
            started.withLock { $0 = (now, cpu) }
        }
        enabled.store(true, ordering: .releasing)
    }

    public var isEnabled: Bool { enabled.load(ordering: .relaxed) }

    /// Runs `body`, adding its wall and CPU time to `kind` when profiling is on.
    @inline(__always)
    package func measure<T>(_ kind: WorkKind, _ body: () throws -> T) rethrows -> T {
        guard isEnabled else { return try body() }
        let wall = Self.wallNow(), cpu = Self.threadCPU()
        defer { add(kind, wall: Self.wallNow() - wall, cpu: Self.threadCPU() - cpu) }
        return try body()
    }

    /// The async form, for work that awaits (a child process): wall time only, since the task may
    /// resume on another thread.
    package func measure<T>(_ kind: WorkKind, _ body: () async throws -> T) async rethrows -> T {
        guard isEnabled else { return try await body() }
        let wall = Self.wallNow()
        defer { add(kind, wall: Self.wallNow() - wall, cpu: 0) }
        return try await body()
    }

    /// Where a stage of the run starts: the clock and the CPU the whole process (and the children
    /// it waited for) has used so far.
    package struct Mark: Sendable {
        var wall: Double
        var cpu: Double
    }

    package func mark() -> Mark? { isEnabled ? Mark(wall: Self.wallNow(), cpu: Self.processCPU()) : nil }

    /// Records a stage that began at `mark`.
    package func endSection(_ name: String, since mark: Mark?) {
        guard let mark else { return }
        let runStart = started.withLock { $0.wall }
        let section = Section(
            name: name, start: mark.wall - runStart, wall: Self.wallNow() - mark.wall,
            cpu: Self.processCPU() - mark.cpu)
        sections.withLock { $0.append(section) }
    }

    package func add(_ kind: WorkKind, wall: Double, cpu: Double) {
        tallies.withLock {
            $0[kind, default: Tally()].wall += wall
            $0[kind, default: Tally()].cpu += cpu
            $0[kind, default: Tally()].count += 1
        }
    }

    /// The report: stages in the order they ended, each with its start and end offset in the run
    /// (stages that overlap show it there; their CPU columns overlap too, the process's CPU being
    /// shared), then every kind of work that was measured.
    public func report() -> String {
        let (wall0, cpu0) = started.withLock { $0 }
        let totalWall = Self.wallNow() - wall0, totalCPU = Self.processCPU() - cpu0
        func seconds(_ value: Double) -> String { String(format: "%8.3f", value) }
        func name(_ text: String) -> String { text.padding(toLength: 28, withPad: " ", startingAt: 0) }
        var lines = ["profile: seconds of wall and CPU time (CPU includes the children waited for)"]
        let stages = sections.withLock { $0 }
        if !stages.isEmpty {
            lines.append("  \(name("stage"))    start      end     wall      CPU")
            for stage in stages {
                lines.append(
                    "  \(name(stage.name)) \(seconds(stage.start)) \(seconds(stage.start + stage.wall))"
                        + " \(seconds(stage.wall)) \(seconds(stage.cpu))")
            }
        }
        lines.append("  \(name("whole run")) \(seconds(totalWall)) \(seconds(totalCPU))")
        let kinds = tallies.withLock { $0 }
        if !kinds.isEmpty {
            lines.append("  \(name("work (summed over threads)"))     wall      CPU  calls")
            for kind in WorkKind.allCases {
                guard let tally = kinds[kind] else { continue }
                let cpu = kind == .git || kind == .processes ? "       -" : seconds(tally.cpu)
                lines.append("  \(name(kind.rawValue)) \(seconds(tally.wall)) \(cpu)  \(tally.count)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// When this process was exec'd, on the `wallNow` clock: /proc's start time counts in clock
    /// ticks since boot (0.01 s), so the start-up it gives is that coarse.
    static func execWall(now: Double) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may hold spaces and parentheses): state is the 3rd
        // field of the line, start time the 22nd.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let ticksPerSecond = sysconf(Int32(_SC_CLK_TCK))
        guard fields.count > 19, let ticks = Double(fields[19]), ticksPerSecond > 0 else { return nil }
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let sinceBoot = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9
        let age = sinceBoot - ticks / Double(ticksPerSecond)
        guard age >= 0, age < 3600 else { return nil }
        return now - age
    }

    static func wallNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    static func threadCPU() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// relctl's user and system time plus that of the children it has waited for.
    static func processCPU() -> Double {
        var own = rusage(), children = rusage()
        getrusage(RUSAGE_SELF.rawValue, &own)
        getrusage(RUSAGE_CHILDREN.rawValue, &children)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(own.ru_utime) + seconds(own.ru_stime) + seconds(children.ru_utime) + seconds(children.ru_stime)
    }
}
