import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// Small projects for the matrix, build and CI tests.
public enum MatrixFixtures {
    /// A relctl.toml with the given targets and build section; version 1.2.3 in VERSION.
    public static func project(
        in directory: TemporaryDirectory,
        targets: [String] = ["x86_64-unknown-linux-gnu", "aarch64-apple-darwin", "x86_64-pc-windows-msvc"],
        extraTargets: String = "",
        build: String = "",
        extra: String = ""
    ) throws {
        let targetTables = targets.map { "[[target]]\ntriple = \"\($0)\"\n" }.joined(separator: "\n")
        try directory.write("VERSION", "1.2.3\n")
        try directory.write(
            "relctl.toml",
            """
            [project]
            name = "demo"

            [[version]]
            path = "VERSION"

            \(build)

            \(targetTables)
            \(extraTargets)
            \(extra)
            """)
    }

    /// True while a process exists and is not a zombie.
    public static func isAlive(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // Field 3, after the parenthesised command name, is the state; Z is a zombie.
        guard let close = stat.lastIndex(of: ")") else { return true }
        return !stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }

    /// Polls until `condition` holds or `seconds` pass (a bound on a gate; the test's time limit
    /// ends it too).
    public static func waitUntil(seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, !TestCancellation.isCancelled {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    /// The files a process holds open (its /proc/PID/fd links), by path.
    public static func openFiles(of pid: Int32) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(
            descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)") })
    }
}
