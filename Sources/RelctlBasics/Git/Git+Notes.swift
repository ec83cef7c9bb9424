import Foundation
import Synchronization

/// One commit as read by `Git.forEachCommit(in:_:)`: the fields release notes need, author via `.mailmap`.
package struct GitCommitRecord: Sendable, Equatable {
    package var hash: String
    /// More than one parent. The parents themselves are not kept: nothing reads them, and over
    /// 100,000 commits their strings and arrays cost ~13 MB (issue 31).
    package var isMerge: Bool
    package var authorName: String
    package var authorEmail: String
    /// Committer time, seconds since the epoch.
    package var time: Int
    /// Where `git log` put the commit (`%m`): in the range, on the base's side of a `--left-right`
    /// walk (`BASE...TARGET`: reachable from the base only), or on the boundary (`--boundary`).
    package var side = Side.target

    package enum Side: Sendable, Equatable {
        case target, other, boundary
    }
    package var subject: String
    package var body: String

    package var shortHash: String { String(hash.prefix(7)) }

    package init(
        hash: String, parents: [String], authorName: String, authorEmail: String, time: Int, subject: String,
        body: String
    ) {
        self.hash = hash
        self.isMerge = parents.count > 1
        self.authorName = authorName
        self.authorEmail = authorEmail
        self.time = time
        self.subject = subject
        self.body = body
    }
}

extension Git {
    /// Unit separator between fields, NUL (from `-z`) between records: neither occurs in commit text.
    /// The hash is preceded by its side mark (`%m`: `>`; `<` for the base's side of a
    /// `--left-right` walk, `-` for a boundary commit).
    package static let logFormat = "--format=%m%H%x1f%P%x1f%aN%x1f%aE%x1f%ct%x1f%s%x1f%b"

    /// Splits `git log -z` output on bytes; decoding each field separately keeps this linear and fast.
    package static func parseLog(_ data: Data) -> [GitCommitRecord] {
        var records: [GitCommitRecord] = []
        var parser = LogStreamParser()
        parser.feed(data) { records.append($0) }
        parser.finish { records.append($0) }
        return records
    }

    /// Turns `git log -z` output, fed in pieces as the pipe delivers them, into records: each
    /// complete (NUL-ended) record is parsed at once, and only an unfinished one is kept.
    package struct LogStreamParser: Sendable {
        private var partial: [UInt8] = []

        package init() {}

        package mutating func feed(_ chunk: Data, into body: (GitCommitRecord) -> Void) {
            chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                let bytes = raw.bindMemory(to: UInt8.self)
                var start = 0
                while let end = bytes[start...].firstIndex(of: 0) {
                    if partial.isEmpty {
                        Self.take(UnsafeBufferPointer(rebasing: bytes[start..<end]), body)
                    } else {
                        partial.append(contentsOf: bytes[start..<end])
                        partial.withUnsafeBufferPointer { Self.take($0, body) }
                        partial.removeAll(keepingCapacity: true)
                    }
                    start = end + 1
                }
                partial.append(contentsOf: bytes[start...])
            }
        }

        /// A last record without its NUL counts too.
        package mutating func finish(into body: (GitCommitRecord) -> Void) {
            partial.withUnsafeBufferPointer { Self.take($0, body) }
            partial = []
        }

        private static func take(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (GitCommitRecord) -> Void) {
            if !bytes.isEmpty, let record = Git.parseRecord(bytes) { body(record) }
        }
    }

    /// One record's fields, found as byte ranges first: only the fields kept become strings
    /// (the parent list and a per-record array of fields did too; over 100,000 commits those
    /// short-lived allocations left the heap fragmented, issue 31).
    fileprivate static func parseRecord(_ bytes: UnsafeBufferPointer<UInt8>) -> GitCommitRecord? {
        var separators = (0, 0, 0, 0, 0, 0)
        var found = 0
        var index = 0
        // The body is last and taken whole, so a stray 0x1f inside it cannot shift fields.
        while index < bytes.count && found < 6 {
            if bytes[index] == 0x1f {
                switch found {
                case 0: separators.0 = index
                case 1: separators.1 = index
                case 2: separators.2 = index
                case 3: separators.3 = index
                case 4: separators.4 = index
                default: separators.5 = index
                }
                found += 1
            }
            index += 1
        }
        guard found == 6 else { return nil }
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        // `git log -z` separates records with NUL but a newline may precede the next hash.
        var hashStart = 0
        while hashStart < separators.0 && (0x0a...0x0d).contains(bytes[hashStart]) { hashStart += 1 }
        // The side mark, when the format has it: `<` is the other side of a `--left-right` walk,
        // `-` a boundary commit.
        var side = GitCommitRecord.Side.target
        if hashStart < separators.0,
            [UInt8(ascii: ">"), UInt8(ascii: "<"), UInt8(ascii: "-")].contains(bytes[hashStart])
        {
            if bytes[hashStart] == UInt8(ascii: "<") { side = .other }
            if bytes[hashStart] == UInt8(ascii: "-") { side = .boundary }
            hashStart += 1
        }
        var body = text((separators.5 + 1)..<bytes.count)
        while body.last?.isNewline == true { body.removeLast() }
        // A merge lists more than one parent (space-separated hashes).
        var parents = 0
        var inParent = false
        for byte in bytes[(separators.0 + 1)..<separators.1] {
            if byte == UInt8(ascii: " ") {
                inParent = false
            } else if !inParent {
                inParent = true
                parents += 1
            }
        }
        var record = GitCommitRecord(
            hash: text(hashStart..<separators.0),
            parents: [],
            authorName: text((separators.1 + 1)..<separators.2),
            authorEmail: text((separators.2 + 1)..<separators.3),
            time: Int(text((separators.3 + 1)..<separators.4)) ?? 0,
            subject: text((separators.4 + 1)..<separators.5),
            body: body
        )
        record.isMerge = parents > 1
        record.side = side
        return record
    }

    /// `commit(of:)` for the end of a notes or bump range: in a repository without commits, an
    /// unborn HEAD says so rather than "ref does not exist, try fetching".
    package func rangeEnd(_ ref: String) async throws -> String {
        // A full commit id (the release's own commit) needs no lookup: `git log` checks it.
        if ref.utf8.count == 40, ref.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) {
            return ref
        }
        do {
            return try await commit(of: ref)
        } catch GitError.unknownRef(let name) where name == "HEAD" {
            throw GitError.noCommits(directory.path)
        }
    }
}

extension Git {
    /// The remote's URL as configured, before `url.<base>.insteadOf` rewriting (which
    /// `git remote get-url` applies, and which can point at a local mirror); nil when absent.
    public func configuredRemoteURL(_ remote: String) async -> String? {
        guard let result = try? await runUnchecked(["config", "--get", "remote.\(remote).url"]), result.succeeded else {
            return nil
        }
        let url = result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        return url.isEmpty ? nil : url
    }
}

extension Git {
    /// True in a shallow clone (CI checkouts default to depth 1), where history and tags are incomplete.
    package func isShallow() async -> Bool {
        (try? await runUnchecked(["rev-parse", "--is-shallow-repository"]))?.stdoutText.hasPrefix("true") ?? false
    }
}
