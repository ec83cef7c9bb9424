import Foundation
import RelctlBasics

/// The git repository a Homebrew tap or Scoop bucket lives in. Publishing clones it (shallow) into
/// a temporary folder, copies the generated files in, and commits and pushes only when they
/// changed: publishing the same release again is a no-op, and a run that failed half-way is
/// finished by running it again. A dry run clones and compares, and rehearses the push with
/// `git push --dry-run`. git's own credentials (helpers, SSH keys) are used; relctl sees none.
package struct TapRepository: Sendable {
    package var channel: String
    package var url: String
    package var context: Context

    /// What a branch the remote lacks is made from.
    package enum NewBranch: Sendable {
        /// The default branch's tip: a winget-pkgs fork's pull-request branch.
        case fromDefault
        /// Nothing: a branch of its own history, as a Pages branch (`gh-pages`) is.
        case orphan
    }

    /// Copies `files` (path in the repository → generated file) in, commits and pushes; returns
    /// the repository URL when something was pushed (or, on a dry run, would be).
    /// - Parameters:
    ///   - trees: folders (path in the repository → generated folder) that replace the folder
    ///     there whole, so a file the new tree lacks is deleted (a DNF repository's old indexes).
    ///   - branch: commit to this branch instead of the default branch (a winget-pkgs fork's
    ///     branch for a pull request, a Pages branch).
    ///   - newBranch: what `branch` starts from when the remote lacks it.
    ///   - check: looks at the clone before anything is written; its error stops the publish.
    package func publish(
        files: [String: URL], trees: [String: URL] = [:], message: String, time: Int, dryRun: Bool,
        branch: String? = nil, newBranch: NewBranch = .fromDefault, check: ((URL) throws -> Void)? = nil
    ) async throws -> [String] {
        let scratch = Temporaries.scratchURL(channel)
        defer { try? FileSystem.remove(scratch) }
        let clone = scratch.appendingPathComponent("repository")
        try FileSystem.createDirectory(scratch)
        try await git(["clone", "--quiet", "--depth", "1", url, clone.path], in: scratch, what: "clone \(url)")
        if let branch {
            let fetched = try await context.processes.run(
                Command(
                    "git",
                    [
                        "fetch", "--quiet", "--depth", "1", "origin",
                        "refs/heads/\(branch):refs/remotes/origin/\(branch)",
                    ],
                    directory: clone, environment: environment))
            if fetched.succeeded || newBranch == .fromDefault {
                try await git(
                    ["checkout", "--quiet", "-B", branch] + (fetched.succeeded ? ["origin/\(branch)"] : []), in: clone,
                    what: "checkout \(branch)")
            } else {
                // An unborn branch with an empty index: works in an empty clone too, where
                // `checkout --orphan` has no commit to start from.
                try await git(["symbolic-ref", "HEAD", "refs/heads/\(branch)"], in: clone, what: "start \(branch)")
                try await git(
                    ["rm", "-r", "-q", "-f", "--ignore-unmatch", "--", "."], in: clone, what: "empty \(branch)")
            }
        }
        // Checked before anything is written, dry run or not: a link committed in the repository
        // (a `Formula` pointing at a folder of the user's) must not carry a write out of the clone.
        for path in (Array(files.keys) + Array(trees.keys)).sorted() {
            _ = try ConfinedPath.resolve(path, in: clone, what: "\(channel): \(url)")
        }
        try check?(clone)
        for (path, source) in trees.sorted(by: { $0.key < $1.key }) {
            guard FileSystem.isDirectory(source) else {
                throw ChannelError.publishFailed(channel: channel, reason: "\(source.path) is missing; write it first")
            }
            try await git(["rm", "-r", "-q", "--ignore-unmatch", "--", path], in: clone, what: "remove \(path)")
            let destination = try ConfinedPath.resolve(path, in: clone, what: "\(channel): \(url)")
            if FileSystem.kind(of: destination) != nil { try FileSystem.remove(destination) }
            try FileSystem.createDirectory(destination.deletingLastPathComponent())
            try FileSystem.copy(source, to: destination)
            try await git(["add", "-A", "--", path], in: clone, what: "add \(path)")
        }
        for (path, source) in files.sorted(by: { $0.key < $1.key }) {
            let destination = try ConfinedPath.resolve(path, in: clone, what: "\(channel): \(url)")
            try FileSystem.createDirectory(destination.deletingLastPathComponent())
            guard let data = FileSystem.contents(of: source) else {
                throw ChannelError.publishFailed(channel: channel, reason: "\(source.path) is missing; write it first")
            }
            try AtomicFile.write(data, to: destination)
            try await git(["add", "--", path], in: clone, what: "add \(path)")
        }
        let changed = try await context.processes.run(
            Command("git", ["diff", "--cached", "--quiet"], directory: clone, environment: environment))
        guard changed.status != 0 else {
            context.console.info(
                "\(channel): \(url) already has \((Array(files.keys) + Array(trees.keys)).sorted().joined(separator: ", ")) as generated"
            )
            return []
        }
        try await git(
            [
                "-c", "user.name=relctl", "-c", "user.email=relctl@users.noreply.github.com", "commit", "--quiet", "-m",
                message,
            ],
            in: clone, what: "commit", date: time)
        try await git(
            ["push", "--quiet"] + (dryRun ? ["--dry-run"] : []) + [
                "origin", branch.map { "HEAD:refs/heads/\($0)" } ?? "HEAD",
            ], in: clone,
            what: "push to \(url)")
        context.console.info("\(channel): \(dryRun ? "would push" : "pushed") \(message) to \(url)")
        return [url]
    }

    private var environment: [String: String] {
        var environment = context.environment
        // Never wait for a password on a terminal nobody watches.
        environment["GIT_TERMINAL_PROMPT"] = "0"
        return environment
    }

    private func git(_ arguments: [String], in directory: URL, what: String, date: Int? = nil) async throws {
        var environment = self.environment
        if let date {
            // The commit of a release is dated like the release, whoever runs it and when.
            environment["GIT_AUTHOR_DATE"] = "@\(date) +0000"
            environment["GIT_COMMITTER_DATE"] = "@\(date) +0000"
        }
        let result = try await context.processes.run(
            Command("git", arguments, directory: directory, environment: environment))
        guard result.succeeded else {
            let output = (result.stderrText + result.stdoutText).split(separator: "\n").suffix(5).joined(
                separator: "; ")
            throw ChannelError.publishFailed(channel: channel, reason: "git \(what) failed: \(output)")
        }
    }
}
