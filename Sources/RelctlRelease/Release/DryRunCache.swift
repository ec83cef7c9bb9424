import Foundation
import RelctlBasics

/// What a dry run's scratch clone borrows from the project so that its build costs what the real
/// run's incremental build costs, without sharing any state with the project (issue 62, section
/// 3; docs/releasing.md, "A warm dry run"):
///
/// - Modification times. A fresh checkout stamps every file "now", so a build tool that judges
///   freshness by modification time (Cargo for the project's own crates, make) rebuilds
///   everything. Each tracked file whose bytes in the clone are the bytes of the project's working
///   tree (git: not in `git diff-index --name-only COMMIT`) gets the project file's modification time,
///   so the tool decides in the clone what it decides in the project; a file that differs keeps
///   its checkout time and is rebuilt.
/// - Cargo (a `Cargo.toml` beside a `target/` folder, at the project or the repository root): the
///   project's `target/` is copied into the clone, copy-on-write where the filesystem can
///   (`cp -a --reflink=auto` on Linux: btrfs, XFS; `cp -c` on macOS: APFS) and a plain copy elsewhere
///   (ext4). A copy, never hard links: Cargo rewrites fingerprint files in place, which through a
///   link would change the project's own `target/`.
/// - Go: nothing to copy. Go's build cache (`GOCACHE`, outside the project) is content-addressed
///   and made for concurrent builds; the clone's build already uses it.
/// - SwiftPM: nothing copied. Its build database keys each file by absolute path and inode, so a
///   `.build/` copied into another folder rebuilds everything anyway.
///
/// A cache that cannot be copied (a full disk) is removed from the clone and the dry run builds
/// cold, with a warning. `RELCTL_DRY_RUN_CACHE=0` turns all of it off (a cold dry run).
enum DryRunCache {
    /// The environment variable that turns the warm dry run off when `0`.
    static let switchName = "RELCTL_DRY_RUN_CACHE"

    /// What `warm` did, for the verbose output and the tests.
    struct Outcome: Sendable, Equatable {
        /// Files given the project's modification time.
        var stamped = 0
        /// The cache folders copied, relative to the repository root.
        var copied: [String] = []
    }

    /// Warms the scratch clone `clone` (of `commit`) of the repository at `top`, whose project
    /// (the config's folder) is `project`.
    @discardableResult
    static func warm(clone: URL, top: URL, project: URL, commit: String, context: Context) async -> Outcome {
        guard context.environment[switchName] != "0" else { return Outcome() }
        var outcome = Outcome()
        outcome.stamped = await stampTimes(clone: clone, top: top, commit: commit, context: context)
        let relative = ReleaseWorkspace.relativePath(of: project, under: top)
        for folder in Set(["", relative]).sorted() {
            let name = folder.isEmpty ? "target" : folder + "/target"
            let source = top.appendingPathComponent(name)
            let destination = clone.appendingPathComponent(name)
            guard FileSystem.statusIfPresent(atPath: source.path, followingLinks: false)?.isDirectory == true,
                FileSystem.exists(atPath: top.appendingPathComponent(folder).appendingPathComponent("Cargo.toml").path),
                FileSystem.statusIfPresent(atPath: destination.path, followingLinks: false) == nil
            else { continue }
            if await copyTree(source, to: destination, context: context) {
                outcome.copied.append(name)
            }
        }
        if outcome.stamped > 0 || !outcome.copied.isEmpty {
            let copied = outcome.copied.isEmpty ? "" : "; copied " + outcome.copied.map { $0 + "/" }.joined(separator: ", ")
            context.console.detail(
                "dry run: \(outcome.stamped) unchanged files keep the project's modification times\(copied)"
                    + " (\(switchName)=0 for a cold build)")
        }
        return outcome
    }

    /// Gives each tracked file of the clone that is byte for byte the project's the project file's
    /// modification time; returns how many. Git's own view decides "the same bytes": every tracked
    /// path but those `git diff-index --name-only COMMIT` lists (the working tree against the commit).
    private static func stampTimes(clone: URL, top: URL, commit: String, context: Context) async -> Int {
        // Plumbing, not `git diff`: porcelain diff refreshes the project's .git/index afterwards
        // (GIT_OPTIONAL_LOCKS does not stop it), a write a dry run promises not to make
        // (ReleaseCLITests.aDryRunDoesNotEvenRefreshTheIndex). diff-index does not refresh, so a
        // file touched without a change is listed too and keeps its checkout time: rebuilt, never
        // wrongly taken as fresh.
        let project = Git(directory: top, context: context)
        let scratch = Git(directory: clone, context: context)
        guard let changedText = try? await project.run(["diff-index", "--name-only", "--no-renames", "-z", commit, "--"]),
            let trackedText = try? await scratch.run(["ls-files", "-z", "--cached"])
        else { return 0 }
        let changed = Set(changedText.split(separator: "\0").map(String.init))
        var stamped = 0
        for path in trackedText.split(separator: "\0").map(String.init) where !changed.contains(path) {
            let source = top.appendingPathComponent(path).path
            let target = clone.appendingPathComponent(path).path
            guard let mine = FileSystem.statusIfPresent(atPath: source, followingLinks: false), mine.isRegularFile,
                let theirs = FileSystem.statusIfPresent(atPath: target, followingLinks: false), theirs.isRegularFile,
                mine.size == theirs.size
            else { continue }
            if (try? FileSystem.setModificationTime(atPath: target, nanoseconds: mine.modifiedNanoseconds)) != nil {
                stamped += 1
            }
        }
        return stamped
    }

    /// A copy of the folder `source` at `destination` (which must not exist), keeping modification
    /// times and modes, copy-on-write where the filesystem can. On failure nothing is left at
    /// `destination` and a warning says the build runs cold.
    private static func copyTree(_ source: URL, to destination: URL, context: Context) async -> Bool {
        #if canImport(Darwin)
            // clonefile on APFS (`-c`); where it cannot clone, a plain copy.
            let attempts = [["-c", "-pR"], ["-pR"]]
        #else
            let attempts = [["-a", "--reflink=auto"]]
        #endif
        var why = "cp did not run"
        for flags in attempts {
            let command = Command("cp", flags + ["--", source.path, destination.path], environment: context.environment)
            if let result = try? await context.processes.run(command) {
                if result.succeeded { return true }
                why = Console.oneLine(result.stderrText, limit: 300)
            }
            try? FileSystem.remove(destination)
        }
        context.console.warning("dry run: could not copy \(source.path) into the scratch clone (\(why)); building cold")
        return false
    }
}
