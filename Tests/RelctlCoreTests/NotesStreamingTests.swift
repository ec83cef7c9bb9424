import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The notes are built as `git log` streams (issue 31): the log is cut wherever the pipe cuts it,
/// commit names are held packed, and reverts are settled at the end. Each piece is checked against
/// the plain way of doing the same thing.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct NotesStreamingTests {
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    func hex(_ count: Int, _ random: inout Generator) -> String {
        String((0..<count).map { _ in "0123456789abcdef".randomElement(using: &random)! })
    }

    @Test func packedNamesGiveBackTheirTextAndOrderAsText() {
        var random = Generator(state: 7)
        var names = ["", "0", "00", "0a", "a", "f", "ff0", "Z", "not hex", "ABCDEF", String(repeating: "f", count: 65)]
        for length in [1, 7, 15, 16, 17, 31, 32, 33, 40, 63, 64] {
            for _ in 0..<20 { names.append(hex(length, &random)) }
        }
        // Shared prefixes, so the tie rules are exercised.
        names += ["abc", "abc0", "abc00", "abcf", "ab", String(repeating: "0", count: 40)]
        for name in names {
            #expect(CommitName(name).description == name)
            for prefix in [String(name.prefix(0)), String(name.prefix(3)), String(name.prefix(16)), name + "0", "ab"] {
                #expect(CommitName(name).hasPrefix(prefix) == name.hasPrefix(prefix), "\(name) \(prefix)")
            }
        }
        for a in names {
            for b in names.shuffled(using: &random).prefix(40) {
                #expect((CommitName(a) < CommitName(b)) == (a < b), "\(a) < \(b)")
                #expect((CommitName(a) == CommitName(b)) == (a == b))
            }
        }
    }

    @Test func theLogParsedInPiecesIsTheLogParsedWhole() {
        var random = Generator(state: 11)
        var log = Data()
        for index in 0..<300 {
            let parents = index % 17 == 0 ? "\(hex(40, &random)) \(hex(40, &random))" : hex(40, &random)
            let body = index % 3 == 0 ? "" : "line one\n\nBREAKING CHANGE: ünïcode \(index)\n"
            log.append(
                Data(
                    "\(hex(40, &random))\u{1f}\(parents)\u{1f}Ada \(index % 5)\u{1f}a\(index)@x\u{1f}\(1_700_000_000 + index)\u{1f}feat: ✨ \(index)\u{1f}\(body)"
                        .utf8))
            log.append(0)
            if index % 2 == 0 { log.append(0x0a) }
        }
        let whole = Git.parseLog(log)
        #expect(whole.count == 300)
        for seed in 0..<20 as Range<UInt64> {
            random = Generator(state: seed)
            var parser = Git.LogStreamParser()
            var pieces: [GitCommitRecord] = []
            var start = 0
            while start < log.count {
                // Cuts of 1 byte up to a few records, inside fields and inside UTF-8 characters.
                let length = Int.random(in: 1...(seed % 2 == 0 ? 7 : 900), using: &random)
                let end = min(log.count, start + length)
                parser.feed(log.subdata(in: start..<end)) { pieces.append($0) }
                start = end
            }
            parser.finish { pieces.append($0) }
            #expect(pieces == whole, "seed \(seed)")
        }
        // The last record may come without its NUL.
        var parser = Git.LogStreamParser()
        var last: [GitCommitRecord] = []
        parser.feed(log.prefix(while: { $0 != 0 })) { last.append($0) }
        parser.finish { last.append($0) }
        #expect(last == [whole[0]])
    }

    /// The rule as it was written before streaming (a pass over the whole list): the oracle.
    static func referenceCancelled(_ commits: [GitCommitRecord]) -> Set<String> {
        let hashes = commits.map(\.hash)
        let inRange = Set(hashes)
        var cancelled: Set<String> = []
        for commit in commits where !cancelled.contains(commit.hash) {
            let named = CommitClassifier.revertedHashes(of: commit)
            guard !named.isEmpty else { continue }
            var resolved: [String] = []
            for prefix in named {
                if inRange.contains(prefix) { resolved.append(prefix); continue }
                if prefix.count >= 7, let full = hashes.first(where: { $0.hasPrefix(prefix) }) { resolved.append(full) }
            }
            let live = resolved.filter { $0 != commit.hash && !cancelled.contains($0) }
            guard !live.isEmpty else { continue }
            cancelled.formUnion(live)
            cancelled.insert(commit.hash)
        }
        return cancelled
    }

    @Test func revertsSettledAtTheEndCancelWhatTheWholeListWould() {
        for seed in 0..<300 as Range<UInt64> {
            var random = Generator(state: seed &+ 1000)
            let count = Int.random(in: 1...40, using: &random)
            // Few distinct leading digits, so short citations are ambiguous and prefixes collide.
            var commits: [GitCommitRecord] = (0..<count).map { index in
                let hash = String("abc".randomElement(using: &random)!) + hex(39, &random)
                return GitCommitRecord(
                    hash: hash, parents: ["p"], authorName: "A", authorEmail: "a@x", time: index,
                    subject: "feat: change \(index)", body: "")
            }
            for index in commits.indices where Int.random(in: 0..<3, using: &random) == 0 {
                // Cite older or newer commits (histories rewritten by hand do both), a missing
                // one, or itself; in full or by a 7- to 12-digit prefix.
                var lines: [String] = []
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    let target =
                        Int.random(in: 0..<6, using: &random) == 0
                        ? hex(40, &random) : commits.randomElement(using: &random)!.hash
                    let cited =
                        Bool.random(using: &random)
                        ? target : String(target.prefix(Int.random(in: 7...12, using: &random)))
                    lines.append("This reverts commit \(cited).")
                }
                let style = Int.random(in: 0..<3, using: &random)
                commits[index].subject = ["Revert \"feat: x\"", "Reapply \"feat: x\"", "revert: x"][style]
                commits[index].body = lines.joined(separator: "\n")
            }
            var ledger = RevertLedger()
            for commit in commits { ledger.add(commit) }
            let streamed = Set(ledger.cancelled().map(\.description))
            #expect(streamed == Self.referenceCancelled(commits), "seed \(seed)")
            #expect(
                CommitClassifier.cancellingReverts(commits).map(\.hash)
                    == commits.filter { !streamed.contains($0.hash) }.map(\.hash))
        }
    }

    @Test func contributorsKeepTheEarliestEmailOfEachName() {
        var list = ContributorList()
        let newestFirst = [
            GitCommitRecord(
                hash: "3", parents: [], authorName: "ada ", authorEmail: "new@x", time: 3, subject: "", body: ""),
            GitCommitRecord(
                hash: "2", parents: ["a", "b"], authorName: "Bob", authorEmail: "m@x", time: 2, subject: "", body: ""),
            GitCommitRecord(
                hash: "1", parents: [], authorName: "Ada", authorEmail: "old@x", time: 1, subject: "", body: ""),
            GitCommitRecord(
                hash: "0", parents: [], authorName: "", authorEmail: "anon@x", time: 0, subject: "", body: ""),
        ]
        for commit in newestFirst { list.add(commit) }
        #expect(
            list.contributors == [
                NotesContributor(name: "Ada", email: "old@x"), NotesContributor(name: "anon@x", email: "anon@x"),
            ])
    }
}
