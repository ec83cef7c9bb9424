import Foundation
import Synchronization

/// A tag as the history engine reads it: its name, the commit it names and when it was made.
package struct GitTag: Sendable, Equatable {
    package var name: String
    /// The commit the tag points at, peeled through annotated tags; nil for a tag of a tree or a blob.
    package var commit: String?
    /// When the tag was made (seconds since the epoch): an annotated tag's tagger date, else the
    /// committer date of its commit.
    package var date: Int

    package init(name: String, commit: String?, date: Int) {
        self.name = name
        self.commit = commit
        self.date = date
    }
}

/// Which commits a `git log` walk hands over: those reachable from `target` and from none of
/// `excluded`; with `bases`, also from none of the bases, less those whose patch a commit reachable
/// from a base (and not from `target`) already carries: git's `--cherry-pick --right-only
/// BASE...TARGET`, with every base on the left side. `paths` (git pathspecs, magic allowed:
/// `:(top)member/`, `:(top,glob,exclude)member/docs/**`) keeps the commits that touch them.
package struct GitLogRange: Sendable, Equatable {
    package var target: String
    package var bases: [String]
    package var excluded: [String]
    package var paths: [String]

    package init(target: String, bases: [String] = [], excluded: [String] = [], paths: [String] = []) {
        self.target = target
        self.bases = bases
        self.excluded = excluded
        self.paths = paths
    }

    /// The arguments after `git log`'s options: the first base's range on the command line, the
    /// other ranges and the excluded commits on stdin (`--stdin`), so thousands of tags never
    /// meet the argument limit.
    package var arguments: [String] { arguments(cherryPick: true) }

    /// Without `cherryPick`, both sides of a range with bases, each commit marked with its side,
    /// none dropped (`Git.patchTwins(in:)` drops them where paths limit the walk).
    package func arguments(cherryPick: Bool, boundary: Bool = true) -> [String] {
        var arguments: [String] = []
        if let base = bases.first {
            // The boundary says whether the base is an ancestor of the target (it is then the boundary).
            if cherryPick { arguments.append("--cherry-pick") }
            arguments.append("--left-right")
            if boundary { arguments.append("--boundary") }
            arguments.append("\(base)...\(target)")
        } else {
            arguments.append(target)
        }
        if input != nil { arguments.append("--stdin") }
        // Every commit that touches the paths, not only those on the path git's simplification keeps.
        if !paths.isEmpty { arguments.append("--full-history") }
        return arguments + ["--"] + paths
    }

    package var input: Data? {
        let lines = bases.dropFirst().map { "\($0)...\(target)\n" } + excluded.map { "^" + $0 + "\n" }
        return lines.isEmpty ? nil : Data(lines.joined().utf8)
    }

    package var description: String {
        (bases.first.map { "\($0)...\(target)" } ?? target)
            + (bases.count > 1 ? " (\(bases.count - 1) more bases)" : "")
            + (excluded.isEmpty ? "" : " (\(excluded.count) excluded)")
            + (paths.isEmpty ? "" : " -- " + paths.joined(separator: " "))
    }
}

extension Git {
    /// Every tag with its commit and date, from one `git for-each-ref` (a tag of a tag, which
    /// for-each-ref peels only once, is resolved in one more call).
    package func tagList() async throws -> [GitTag] {
        let output = try await run([
            "for-each-ref",
            "--format=%(refname:strip=2)%00%(objecttype)%00%(objectname)%00%(*objecttype)%00%(*objectname)%00%(creatordate:unix)",
            "refs/tags",
        ])
        var tags: [GitTag] = []
        var nested: [Int] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: "\0", omittingEmptySubsequences: false)
            guard fields.count == 6 else { continue }
            let (type, object, peeledType, peeled) = (fields[1], fields[2], fields[3], fields[4])
            var commit: String?
            if type == "commit" {
                commit = String(object)
            } else if type == "tag", peeledType == "commit" {
                commit = String(peeled)
            } else if type == "tag", peeledType == "tag" {
                nested.append(tags.count)
            }
            tags.append(GitTag(name: String(fields[0]), commit: commit, date: Int(fields[5]) ?? 0))
        }
        if !nested.isEmpty {
            // `rev-parse NAME^{commit}` for each at once; one that names no commit leaves the list short.
            let result = try await runUnchecked(
                ["rev-parse"] + nested.map { "refs/tags/" + tags[$0].name + "^{commit}" })
            let hashes = result.stdoutText.split(separator: "\n").map(String.init)
            if result.succeeded, hashes.count == nested.count {
                for (index, hash) in zip(nested, hashes) { tags[index].commit = hash }
            }
        }
        return tags
    }

    /// What a walk saw besides the commits it handed over.
    package struct LogWalk: Sendable, Equatable {
        /// Commits of the bases' side of a cherry-pick range that no commit of the target carries.
        package var otherSide = 0
        /// The boundary commits of a cherry-pick range: a base itself when it is an ancestor of
        /// the target (else their merge base), and the excluded commits the walk stopped at.
        /// Where paths limit the walk, git adds the parents of shown commits that the paths leave
        /// out, and the parents of patch twins (`patchTwins(in:)`); a base on the boundary is an
        /// ancestor of the target all the same, the one question readers ask of it.
        package var boundaries: Set<String> = []
    }

    /// Hands each commit of `range` to `body` as `git log` prints it (newest first, `--topo-order`,
    /// from a reader thread), in one call, without collecting them: over 100,000 commits the log's
    /// text is 14 MB and the records 10 MB, and `relctl notes` needs neither whole (issue 31). The
    /// log is parsed as the pipe delivers it (`LogStreamParser`).
    @discardableResult
    package func forEachCommit(
        in range: GitLogRange, _ body: @escaping @Sendable (GitCommitRecord) -> Void
    ) async throws -> LogWalk {
        // Where paths limit a range with bases, git's own `--cherry-pick` (2.39) costs up to 16
        // times the walk without paths: libc's `ctest/` across its `libc-0.2` branch, 26 s against
        // 1.6 s. The same commits are dropped from patch ids of the commits touching the paths.
        var ownTwins = !range.bases.isEmpty && !range.paths.isEmpty
        var found: Set<String> = []
        if ownTwins {
            // A diff git cannot make (an object missing from a partial clone) leaves the
            // comparison to git's own `--cherry-pick`, which compares file names first.
            if let answer = try? await patchTwins(in: range) { found = answer } else { ownTwins = false }
        }
        let twins = found
        var command = self.command(
            ["log", "-z", "--topo-order", "--no-color", "--no-show-signature", "--use-mailmap", Self.logFormat]
                + range.arguments(cherryPick: !ownTwins))
        command.input = range.input
        let parser = Mutex(LogStreamParser())
        let errors = Mutex(Data())
        let walk = Mutex(LogWalk())
        let keep: @Sendable (GitCommitRecord) -> Void = { record in
            if record.side != .boundary, twins.contains(record.hash) { return }
            switch record.side {
            case .target: body(record)
            case .other: walk.withLock { $0.otherSide += 1 }
            case .boundary: walk.withLock { _ = $0.boundaries.insert(record.hash) }
            }
        }
        let status = try await context.processes.streamChunks(command) { channel, chunk in
            switch channel {
            case .stdout: parser.withLock { $0.feed(chunk, into: keep) }
            case .stderr: errors.withLock { $0.append(chunk) }
            }
            return .more
        }
        if status == 127 { throw GitError.notInstalled }
        guard status == 0 else {
            let output = String(decoding: errors.withLock { $0 }, as: UTF8.self)
            if output.contains("not a git repository") { throw GitError.notARepository(directory.path) }
            throw GitError.failed(CommandError(command: "git log \(range.description)", status: status, output: output))
        }
        parser.withLock { $0.finish(into: keep) }
        return walk.withLock { $0 }
    }

    /// The commits of a range with bases and paths that `--cherry-pick` drops: each whose change
    /// under the paths has the patch id (`git patch-id --stable`, of `git diff-tree -p` limited to
    /// the paths) of a commit on the other side. Merges have none, as in git's own comparison.
    /// Only commits whose set of changed files a commit of the other side shares are diffed (git's
    /// own first step), so a history where few commits were picked reads few blobs.
    package func patchTwins(in range: GitLogRange) async throws -> Set<String> {
        var listing = command(
            ["log", "--no-color", "--format=%m%H"] + range.arguments(cherryPick: false, boundary: false))
        listing.input = range.input
        let listed = try await context.processes.run(listing)
        guard listed.succeeded else {
            throw GitError.failed(
                CommandError(command: "git log \(range.description)", status: listed.status, output: listed.stderrText))
        }
        var sides: [String: Bool] = [:]  // hash → on the target's side
        for line in listed.stdoutText.split(separator: "\n") where line.count > 1 {
            sides[String(line.dropFirst())] = line.first == ">"
        }
        guard sides.values.contains(true), sides.values.contains(false) else { return [] }
        // As git does, the files each commit changes first: only commits whose set of files a
        // commit on the other side changes too can carry its patch, and only theirs are diffed.
        var names = command(
            ["-c", "diff.relative=false", "diff-tree", "--stdin", "-r", "--name-only", "--root", "--no-renames", "--"]
                + range.paths)
        names.input = Data(sides.keys.sorted().map { $0 + "\n" }.joined().utf8)
        let named = try await context.processes.run(names)
        guard named.succeeded else {
            throw GitError.failed(
                CommandError(command: "git diff-tree --stdin --name-only", status: named.status, output: named.stderrText))
        }
        var files: [String: [Substring]] = [:]
        var current: String?
        for line in named.stdoutText.split(separator: "\n") {
            if line.count == 40 || line.count == 64, sides[String(line)] != nil {
                current = String(line)
            } else if let current {
                files[current, default: []].append(line)
            }
        }
        var keys: [String: (target: Bool, other: Bool)] = [:]
        for (hash, changed) in files {
            let key = changed.sorted().joined(separator: "\0")
            if sides[hash] == true { keys[key, default: (false, false)].target = true } else { keys[key, default: (false, false)].other = true }
        }
        let candidates = files.compactMap { hash, changed -> String? in
            let key = keys[changed.sorted().joined(separator: "\0")]
            return key?.target == true && key?.other == true ? hash : nil
        }
        guard !candidates.isEmpty else { return [] }
        var ids: [String: (target: [String], other: [String])] = [:]
        // In batches, so a long range never holds all its diffs at once.
        let hashes = candidates.sorted()
        for start in stride(from: 0, to: hashes.count, by: 400) {
            let batch = hashes[start..<min(start + 400, hashes.count)]
            var diff = command(
                ["-c", "diff.relative=false", "diff-tree", "--stdin", "-p", "--root", "--no-color", "--no-renames",
                 "--no-ext-diff", "--"] + range.paths)
            diff.input = Data(batch.map { $0 + "\n" }.joined().utf8)
            let diffs = try await context.processes.run(diff)
            guard diffs.succeeded else {
                throw GitError.failed(
                    CommandError(command: "git diff-tree --stdin -p", status: diffs.status, output: diffs.stderrText))
            }
            var patchID = command(["patch-id", "--stable"])
            patchID.input = diffs.stdout
            let result = try await context.processes.run(patchID)
            guard result.succeeded else {
                throw GitError.failed(
                    CommandError(command: "git patch-id --stable", status: result.status, output: result.stderrText))
            }
            for line in result.stdoutText.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 2, let onTarget = sides[String(fields[1])] else { continue }
                let (id, hash) = (String(fields[0]), String(fields[1]))
                if onTarget { ids[id, default: ([], [])].target.append(hash) } else { ids[id, default: ([], [])].other.append(hash) }
            }
        }
        var twins: Set<String> = []
        for pair in ids.values where !pair.target.isEmpty && !pair.other.isEmpty {
            twins.formUnion(pair.target)
            twins.formUnion(pair.other)
        }
        return twins
    }

    /// The names of the tags whose commits are not ancestors of (or equal to) `commit`, from one
    /// `git for-each-ref --no-merged`.
    package func tagNames(notMergedInto commit: String) async throws -> Set<String> {
        if let memo, let known = memo.notMerged.withLock({ $0[commit] }) { return known }
        let names = Set(
            try await run(["for-each-ref", "--no-merged=\(commit)", "--format=%(refname:strip=2)", "refs/tags"])
                .split(separator: "\n").map(String.init))
        memo?.notMerged.withLock { $0[commit] = names }
        return names
    }

    /// The tags whose commit contains `commit` (`git for-each-ref --contains`).
    package func tagNames(containing commit: String) async throws -> Set<String> {
        if let memo, let known = memo.containing.withLock({ $0[commit] }) { return known }
        let names = Set(
            try await run(["for-each-ref", "--contains=\(commit)", "--format=%(refname:strip=2)", "refs/tags"])
                .split(separator: "\n").map(String.init))
        memo?.containing.withLock { $0[commit] = names }
        return names
    }

    /// Whether `ancestor` is an ancestor of (or equal to) `commit` (`git merge-base --is-ancestor`);
    /// nil when git cannot say.
    package func isAncestor(_ ancestor: String, of commit: String) async -> Bool? {
        let key = ancestor + " " + commit
        if let memo, let known = memo.ancestry.withLock({ $0[key] }) { return known }
        guard let result = try? await runUnchecked(["merge-base", "--is-ancestor", ancestor, commit]) else {
            return nil
        }
        let answer = result.status == 0 ? true : result.status == 1 ? false : nil
        if let memo, let answer { memo.ancestry.withLock { $0[key] = answer } }
        return answer
    }

    /// The folder the repository is read from, relative to the top of its work tree (`""` at the
    /// top, `pydantic-core/` in a member folder), from `git rev-parse --show-prefix`.
    package func prefixFromTop() async throws -> String {
        try await run(["rev-parse", "--show-prefix"]).trimmingCharacters(in: .newlines)
    }
}
