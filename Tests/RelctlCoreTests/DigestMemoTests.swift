import Crypto
import Foundation
import RelctlArtifacts
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The stat-keyed memo of file digests behind the layer cache's keys (issue 31): a hit never
/// answers for bytes that changed, whatever a program does to the file's times.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct DigestMemoTests {
    private func sha256(_ text: String) -> String { FileHasher.hex(SHA256.hash(data: Data(text.utf8))) }

    @Test func anUnchangedFileIsAnsweredWithoutReadingIt() async throws {
        try await withTemporaryDirectory { directory in
            let files = [try directory.write("a", "alpha"), try directory.write("b", "beta")]
            let memo = DigestMemo(file: directory.url.appendingPathComponent("memo"), settleNanoseconds: 0)
            let first = try await memo.sha256(of: files)
            #expect(first.digests == [sha256("alpha"), sha256("beta")])
            #expect(first.remembered == 0)
            let second = try await memo.sha256(of: files)
            #expect(second.digests == first.digests)
            #expect(second.remembered == 2)
        }
    }

    @Test func newBytesWithTheOldSizeAndModificationTimeAreReadAgain() async throws {
        try await withTemporaryDirectory { directory in
            let file = try directory.write("velo-sql", "aaaa")
            let memo = DigestMemo(file: directory.url.appendingPathComponent("memo"), settleNanoseconds: 0)
            _ = try await memo.sha256(of: [file])
            let old = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as! Date
            // A build that rewrites a binary in place and restores its time (as `cp -p` or
            // `touch -r` would): only the status-change time tells.
            try Data("bbbb".utf8).write(to: file)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
            let again = try await memo.sha256(of: [file])
            #expect(again.digests == [sha256("bbbb")])
            #expect(again.remembered == 0)
            // A file replaced by another (a new inode) is read again too.
            let other = try directory.write("other", "cccc")
            try FileManager.default.removeItem(at: file)
            try FileManager.default.moveItem(at: other, to: file)
            #expect(try await memo.sha256(of: [file]).digests == [sha256("cccc")])
        }
    }

    @Test func aFileChangedJustBeforeTheReadIsNotRemembered() async throws {
        try await withTemporaryDirectory { directory in
            let file = try directory.write("fresh", "just built")
            // The default: a change less than two seconds old may share its clock tick with a
            // later one, so the digest is not kept.
            let memo = DigestMemo(file: directory.url.appendingPathComponent("memo"))
            _ = try await memo.sha256(of: [file])
            let second = try await memo.sha256(of: [file])
            #expect(second.remembered == 0)
            #expect(second.digests == [sha256("just built")])
        }
    }

    @Test func aDamagedMemoCostsAReadNeverAWrongDigest() async throws {
        try await withTemporaryDirectory { directory in
            let file = try directory.write("a", "alpha")
            let memoFile = directory.url.appendingPathComponent("memo")
            let memo = DigestMemo(file: memoFile, settleNanoseconds: 0)
            _ = try await memo.sha256(of: [file])
            // A memo that is not ours (or was cut short) is ignored, and written anew.
            try Data("not json".utf8).write(to: memoFile)
            let result = try await memo.sha256(of: [file])
            #expect(result.digests == [sha256("alpha")] && result.remembered == 0)
            #expect(try await memo.sha256(of: [file]).remembered == 1, "the memo was written again")
        }
    }

    @Test func theMemoKeepsAtMostItsCapacity() async throws {
        try await withTemporaryDirectory { directory in
            let memoFile = directory.url.appendingPathComponent("memo")
            let memo = DigestMemo(file: memoFile, capacity: 3, settleNanoseconds: 0)
            var files: [URL] = []
            for index in 0..<5 {
                files.append(try directory.write("f\(index)", "content \(index)"))
                _ = try await memo.sha256(of: [files[index]])
            }
            let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: memoFile)) as? [String: Any]
            let kept = Set(((stored?["files"] as? [String: Any]) ?? [:]).keys)
            #expect(kept == Set(files.suffix(3).map(\.path)), "the most recently stored stay: \(kept)")
        }
    }
}
