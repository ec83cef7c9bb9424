import Foundation
import Synchronization

/// Answers of read-only git queries kept for one computation that moves no ref (`relctl plan`
/// over a workspace: each member asked which tags a target lacks, TanStack router's 42 members
/// 54 times for two commits, 3 of its 5.7 s). Whoever attaches one to a `Git` promises that no
/// tag is made or moved while it is attached.
package final class GitQueryMemo: Sendable {
    let notMerged = Mutex<[String: Set<String>]>([:])
    /// `tagNames(containing:)`: tiptap's 76 members asked it 106 times for one commit, 51 of 74 s.
    let containing = Mutex<[String: Set<String>]>([:])
    /// `isAncestor(_:of:)`, keyed by the two commits: astro's members asked one pair 11 times a plan.
    let ancestry = Mutex<[String: Bool]>([:])
    package init() {}
}

/// The real `git` binary, run in one repository. Areas add their own queries in extensions
/// (`Git+Notes.swift`, `Git+Release.swift`); this file holds what everyone needs.
public struct Git: Sendable {
    package var directory: URL
    package var context: Context
    /// Query answers shared while no ref moves (`GitQueryMemo`); nil: every query asks git.
    package var memo: GitQueryMemo?

    public init(directory: URL, context: Context) {
        self.directory = directory
        self.context = context
    }

    /// Runs `git ARGS` in the repository and returns stdout; a non-zero exit throws.
    @discardableResult
    public func run(
        _ arguments: [String], environment extra: [String: String] = [:], gated: Bool = false
    ) async throws -> String {
        let result = try await runUnchecked(arguments, environment: extra, gated: gated)
        guard result.succeeded else {
            let command = "git " + arguments.joined(separator: " ")
            if result.stderrText.contains("not a git repository") { throw GitError.notARepository(directory.path) }
            try checkOwnership(result)
            throw GitError.failed(CommandError(command: command, status: result.status, output: result.stderrText))
        }
        return result.stdoutText
    }

    /// Runs git and returns the whole result, for callers that treat failure as an answer.
    /// `gated` holds git until its pid is recorded (`Command.gated()`), for children a killed
    /// release must be able to wait for.
    package func runUnchecked(
        _ arguments: [String], environment extra: [String: String] = [:], gated: Bool = false
    ) async throws -> ProcessResult {
        let command = self.command(arguments, environment: extra)
        let result = try await context.processes.run(gated ? command.gated() : command)
        // git itself never exits 127; `env` does when it cannot find git. Without this every
        // caller would report "not a git repository" on a machine that lacks git.
        if result.status == 127 { throw GitError.notInstalled }
        return result
    }

    /// `git ARGS` in the repository, with stable, parseable output whatever the user's locale
    /// and pager settings.
    package func command(_ arguments: [String], environment extra: [String: String] = [:]) -> Command {
        var environment = context.environment
        environment["LC_ALL"] = "C"
        environment["GIT_PAGER"] = "cat"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        for (key, value) in extra { environment[key] = value }
        return Command("git", ["-C", directory.path] + arguments, environment: environment)
    }

    /// True when the directory is inside a work tree. Throws when git cannot answer: not
    /// installed, or refusing a repository owned by another user (CI containers, mounted volumes).
    package func isRepository() async throws -> Bool {
        let result = try await runUnchecked(["rev-parse", "--is-inside-work-tree"])
        try checkOwnership(result)
        return result.stdoutText.hasPrefix("true")
    }

    /// The work tree's top and the real git directory (where the release lock lives), in one
    /// call; nil outside a work tree. Throws when git cannot answer (not installed, dubious ownership).
    package func layout() async throws -> (topLevel: URL, commonDirectory: URL)? {
        let result = try await runUnchecked([
            "rev-parse", "--is-inside-work-tree", "--show-toplevel", "--git-common-dir",
        ])
        try checkOwnership(result)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        guard result.succeeded, lines.count == 3, lines[0] == "true" else { return nil }
        let here = AbsolutePath(directory)
        return (AbsolutePath(lines[1], relativeTo: here).url, AbsolutePath(lines[2], relativeTo: here).url)
    }

    /// Config entries whose keys match `pattern` (`git config --get-regexp`), in order; keys come
    /// back as git prints them (section and name lowercased).
    package func settings(matching pattern: String) async -> [(key: String, value: String)] {
        let listing = (try? await run(["config", "--get-regexp", pattern])) ?? ""
        return listing.split(separator: "\n").compactMap { (line: Substring) -> (key: String, value: String)? in
            guard let space = line.firstIndex(of: " ") else { return nil }
            return (String(line[..<space]), String(line[line.index(after: space)...]))
        }
    }

    /// Branch, upstream, ahead/behind and uncommitted paths in one `git status`.
    package func status() async throws -> GitStatus {
        // quotePath off: a dirty `café.txt` is listed as such, not as "caf\303\251.txt".
        GitStatus(
            porcelainV2: try await run([
                "-c", "core.quotePath=false", "status", "--porcelain=v2", "--branch", "--untracked-files=normal",
            ]))
    }

    /// git names the repository it refuses (`… dubious ownership in repository at '/repo'`);
    /// that top-level folder, not relctl's working folder, is what `safe.directory` needs.
    private func checkOwnership(_ result: ProcessResult) throws {
        let text = result.stderrText
        guard let marker = text.range(of: "dubious ownership in repository at '") else { return }
        let path = text[marker.upperBound...].prefix { $0 != "'" }
        throw GitError.dubiousOwnership(path.isEmpty ? directory.path : String(path))
    }

    /// The text of `path` (relative to this directory) as `revision` holds it; nil when it holds
    /// no such file, or one larger than `limit` bytes (its size is asked first).
    package func fileText(_ path: String, at revision: String, limit: Int = 1 << 20) async -> String? {
        let object = "\(revision):./\(path)"
        guard let size = try? await runUnchecked(["cat-file", "-s", object]), size.succeeded,
            let bytes = Int(size.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)), bytes <= limit,
            let shown = try? await runUnchecked(["cat-file", "blob", object]), shown.succeeded
        else { return nil }
        return shown.stdoutText
    }

    /// The top of the work tree.
    package func topLevel() async throws -> URL {
        URL(
            fileURLWithPath: try await run(["rev-parse", "--show-toplevel"]).trimmingCharacters(
                in: .whitespacesAndNewlines))
    }

    /// The full commit hash a ref points to (tags peeled); `GitError.unknownRef` if there is none.
    package func commit(of ref: String) async throws -> String {
        let result = try await runUnchecked(["rev-parse", "--verify", "--quiet", "\(ref)^{commit}"])
        guard result.succeeded else {
            if try await !isRepository() { throw GitError.notARepository(directory.path) }
            throw GitError.unknownRef(ref)
        }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The full hash and the committer time of a commit, in one call. `git log -1`, not `git show
    /// -s`: for a merge that one still works out the combined diff, reading the blobs a conflict
    /// was resolved in (freqtrade's merges: blobs a partial clone lacks made `plan` exit 1).
    package func commitAndTime(of ref: String) async throws -> (String, Int) {
        let result = try await runUnchecked(["log", "-1", "--no-show-signature", "--format=%H %ct", "\(ref)^{commit}", "--"])
        let fields = result.stdoutText.split(separator: " ")
        guard result.succeeded, fields.count == 2,
            let time = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            if try await !isRepository() { throw GitError.notARepository(directory.path) }
            throw GitError.unknownRef(ref)
        }
        return (String(fields[0]), time)
    }

    /// The committer time of a commit, in seconds since the epoch: the reproducible clock.
    package func committerTime(of ref: String) async throws -> Int {
        let text = try await run(["log", "-1", "--no-show-signature", "--format=%ct", try await commit(of: ref), "--"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return Int(text) ?? 0
    }

    /// The committer's wall clock when `ref` was committed, as seconds that read as UTC: the
    /// commit time moved by the committer's own offset (`00:24 +0100` is 00:24, not 23:24 the day
    /// before), so a calendar version names the day its maintainer saw (furo's `2023.08.19`).
    package func committerLocalTime(of ref: String) async throws -> Int {
        let text = try await run(["log", "-1", "--no-show-signature", "--format=%ct %ci", try await commit(of: ref), "--"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: " ")
        guard let time = parts.first.flatMap({ Int($0) }) else { return 0 }
        // `%ci` is `2023-08-19 00:24:45 +0100`: the offset is its last word.
        guard parts.count == 4, let zone = parts.last, zone.count == 5, let sign = zone.first, sign == "+" || sign == "-",
            let hours = Int(zone.dropFirst().prefix(2)), let minutes = Int(zone.suffix(2))
        else { return time }
        return time + (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// True if the ref exists as a local tag.
    public func localTagExists(_ tag: String) async -> Bool {
        (try? await runUnchecked(["rev-parse", "--verify", "--quiet", "refs/tags/\(tag)"]))?.succeeded ?? false
    }

    /// Every tag name in the repository.
    package func tags() async throws -> [String] {
        try await run(["tag", "--list"]).split(separator: "\n").map(String.init)
    }

    /// The checked-out branch, or nil on a detached HEAD.
    /// The full ref is read and `refs/heads/` dropped: git's `--short` spells a branch that
    /// shares its name with a tag `heads/v9` (go-playground/validator's `v9` branch and tag), and
    /// init wrote that into `[[branch]] name`, which CI's `GITHUB_REF_NAME=v9` never matches.
    package func currentBranch() async throws -> String? {
        let result = try await runUnchecked(["symbolic-ref", "--quiet", "HEAD"])
        guard result.succeeded else { return nil }
        let ref = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return ref.hasPrefix("refs/heads/") ? String(ref.dropFirst("refs/heads/".count)) : ref
    }

    /// The branch `origin`'s HEAD names (the default branch of the repository it was cloned
    /// from), or nil when the clone recorded none.
    package func remoteDefaultBranch() async -> String? {
        guard let result = try? await runUnchecked(["symbolic-ref", "--quiet", "refs/remotes/origin/HEAD"]),
            result.succeeded
        else { return nil }
        let name = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let prefix = "refs/remotes/origin/"
        return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : nil
    }

    /// `git status --porcelain` lines: empty when the work tree is clean.
    package func dirtyPaths() async throws -> [String] {
        // quotePath off: a dirty `café.txt` is listed as such, not as "caf\303\251.txt".
        try await run(["-c", "core.quotePath=false", "status", "--porcelain", "--untracked-files=normal"]).split(
            separator: "\n"
        ).map(String.init)
    }

    /// The URL of a remote, or nil when there is no such remote.
    package func remoteURL(_ remote: String = "origin") async -> String? {
        guard let result = try? await runUnchecked(["remote", "get-url", remote]), result.succeeded else { return nil }
        return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Git {
    /// The nearest folder at or above `path` holding `.git` (a folder, or a file in a worktree).
    package static func repositoryTop(of path: String) -> String? {
        var current = path
        while true {
            if FileSystem.exists(atPath: (current as NSString).appendingPathComponent(".git")) {
                return current
            }
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { return nil }
            current = parent
        }
    }
}
