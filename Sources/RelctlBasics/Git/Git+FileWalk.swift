import Foundation
import Synchronization

/// One commit of `Git.forEachCommitWithFiles`: what a walk shared by a workspace's members needs
/// to attribute it (its parents and the files it changes) and to count it (its message).
package struct GitFileWalkCommit: Sendable {
    /// The hash, whether it is a merge, the subject and body (no author: a bump does not read it).
    package var record: GitCommitRecord
    package var parents: [CommitName]
    /// The paths it changes against its parent, from the repository's top; none for a merge (git
    /// lists no files for merges without `-m`) and for an empty commit.
    package var files: [String]
}

extension Git {
    /// Hands every commit reachable from `target` to `body`, children before parents
    /// (`--topo-order`), with its parents and the files it changes, from one `git log --name-only`
    /// streamed as the pipe delivers it: the walk a workspace's members share (`relctl plan`).
    /// Paths are the repository's, whatever the user's configuration says (`diff.relative` off,
    /// set with `-c` so gits older than `--no-relative` take it), and a rename is its two paths
    /// (`--no-renames`), so a file moved out of a member still counts for it. The root commit
    /// lists its files whatever `log.showRoot` says (`--root`).
    package func forEachCommitWithFiles(
        from target: String, _ body: @escaping @Sendable (GitFileWalkCommit) -> Void
    ) async throws {
        try await forEachCommitWithFiles(from: [target], notFrom: [], body)
    }

    /// The same walk of the commits reachable from any of `tips` and from none of `notFrom`: the
    /// commits of release lines a target does not contain (`SharedHistoryWalk`). The revisions go
    /// on stdin, so any number of them never meets the argument limit.
    package func forEachCommitWithFiles(
        from tips: [String], notFrom excluded: [String], _ body: @escaping @Sendable (GitFileWalkCommit) -> Void
    ) async throws {
        var command = self.command([
            "-c", "diff.relative=false", "log", "-z", "--topo-order", "--no-color", "--no-show-signature",
            "--name-only", "--no-renames", "--root", "--format=%x1e%H%x1f%P%x1f%s%x1f%b", "--stdin", "--",
        ])
        command.input = Data((tips.map { $0 + "\n" } + excluded.map { "^" + $0 + "\n" }).joined().utf8)
        let parser = Mutex(FileWalkParser())
        let errors = Mutex(Data())
        let status = try await context.processes.streamChunks(command) { channel, chunk in
            switch channel {
            case .stdout: parser.withLock { $0.feed(chunk, into: body) }
            case .stderr: errors.withLock { $0.append(chunk) }
            }
            return .more
        }
        if status == 127 { throw GitError.notInstalled }
        guard status == 0 else {
            let output = String(decoding: errors.withLock { $0 }, as: UTF8.self)
            if output.contains("not a git repository") { throw GitError.notARepository(directory.path) }
            throw GitError.failed(
                CommandError(
                    command: "git log --name-only \(tips.joined(separator: " "))"
                        + excluded.map { " ^" + $0 }.joined(),
                    status: status, output: output))
        }
        parser.withLock { $0.finish(into: body) }
    }

    /// Turns `git log -z --name-only --format=%x1e…` output, fed in pieces, into commits. Each
    /// commit is its header (from the 0x1e mark to a NUL), then, when it changes files, a newline
    /// and each path NUL-terminated; the next header's 0x1e mark ends the list (a path starting
    /// with 0x1e cannot be told from a header, and no real path does).
    package struct FileWalkParser: Sendable {
        private var field: [UInt8] = []
        private var current: GitFileWalkCommit?
        private var inHeader = false

        package init() {}

        package mutating func feed(_ chunk: Data, into body: (GitFileWalkCommit) -> Void) {
            chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                for byte in raw.bindMemory(to: UInt8.self) {
                    if byte == 0 {
                        endField(body)
                    } else if byte == 0x1e && field.isEmpty && !inHeader {
                        if let done = current.take() { body(done) }
                        inHeader = true
                    } else if byte == 0x0a && field.isEmpty && !inHeader {
                        // The newline between a header and its first path.
                        continue
                    } else {
                        field.append(byte)
                    }
                }
            }
        }

        package mutating func finish(into body: (GitFileWalkCommit) -> Void) {
            if !field.isEmpty { endField(body) }
            if let done = current.take() { body(done) }
        }

        private mutating func endField(_ body: (GitFileWalkCommit) -> Void) {
            defer { field.removeAll(keepingCapacity: true) }
            if inHeader {
                inHeader = false
                current = field.withUnsafeBufferPointer(Self.header)
            } else if !field.isEmpty {
                current?.files.append(String(decoding: field, as: UTF8.self))
            }
        }

        private static func header(_ bytes: UnsafeBufferPointer<UInt8>) -> GitFileWalkCommit? {
            var separators: [Int] = []
            // The body is last and taken whole, so a stray 0x1f inside it cannot shift fields.
            for index in bytes.indices where bytes[index] == 0x1f {
                separators.append(index)
                if separators.count == 3 { break }
            }
            guard separators.count == 3 else { return nil }
            func text(_ range: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            }
            let parents = bytes[(separators[0] + 1)..<separators[1]].split(separator: UInt8(ascii: " ")).map {
                CommitName(String(decoding: $0, as: UTF8.self))
            }
            var body = text((separators[2] + 1)..<bytes.count)
            while body.last?.isNewline == true { body.removeLast() }
            var record = GitCommitRecord(
                hash: text(0..<separators[0]), parents: [], authorName: "", authorEmail: "", time: 0,
                subject: text((separators[1] + 1)..<separators[2]), body: body)
            record.isMerge = parents.count > 1
            return GitFileWalkCommit(record: record, parents: parents, files: [])
        }
    }
}
