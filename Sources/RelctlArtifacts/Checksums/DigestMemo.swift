import Foundation
import RelctlBasics

/// SHA-256 digests of files remembered by what stat(2) says about them (device, inode, size,
/// modification and status-change times in nanoseconds), the way git's index avoids re-reading
/// unchanged files. The layer cache keys each image layer by its files' digests; without the
/// memo, an unchanged image still reads and hashes every binary (78 MB in the benchmark) on each
/// run just to find its key.
///
/// Why a hit can be trusted: st_ctime is set by the kernel on every change to a file and no
/// program can set it back, so a file whose bytes changed has a new ctime (or a new inode, for
/// a file replaced by rename). The one gap is a change within the same clock tick as the status
/// that was recorded ("racily clean" in git's words); a digest is therefore only remembered when
/// the file was unchanged across the read and its last change is more than `settleNanoseconds` older
/// than the read, so any later change must land on a later tick.
///
/// The memo is one JSON file, written atomically and read leniently: a missing, damaged or
/// foreign memo costs a re-hash, never a wrong digest. At most `capacity` files are kept, the
/// least recently stored going first.
package struct DigestMemo: Sendable {
    package let file: URL
    package let capacity: Int
    /// How much older than the read a file's last change must be for its digest to be kept.
    /// Two seconds covers every filesystem's timestamp granularity (FAT's is two seconds).
    package let settleNanoseconds: Int64

    package init(file: URL, capacity: Int = 4096, settleNanoseconds: Int64 = 2_000_000_000) {
        self.file = file
        self.capacity = capacity
        self.settleNanoseconds = settleNanoseconds
    }

    /// The memo's on-disk form: bumped if the meaning of a field changes.
    private struct Stored: Codable {
        var version = 1
        var files: [String: Entry] = [:]
    }

    private struct Entry: Codable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
        var sha256: String
        /// When this digest was stored (nanoseconds since the epoch): the eviction order.
        var stored: Int64

        init(_ status: FileStatus, sha256: String, stored: Int64) {
            device = status.device
            inode = status.inode
            size = status.size
            modified = status.modifiedNanoseconds
            changed = status.changedNanoseconds
            self.sha256 = sha256
            self.stored = stored
        }

        func matches(_ status: FileStatus) -> Bool {
            device == status.device && inode == status.inode && size == status.size
                && modified == status.modifiedNanoseconds && changed == status.changedNanoseconds
        }
    }

    /// How many of the last call's files were answered from the memo.
    package struct Result: Sendable {
        package var digests: [String]
        package var remembered: Int
    }

    /// The SHA-256 of each file, in order: from the memo where the file's status is unchanged,
    /// else read and hashed (in parallel) and remembered when it is safe to. A memo that cannot
    /// be written is ignored: the next run hashes again.
    package func sha256(of urls: [URL]) async throws -> Result {
        var stored = load()
        var digests = [String?](repeating: nil, count: urls.count)
        var before = [FileStatus?](repeating: nil, count: urls.count)
        for (index, url) in urls.enumerated() {
            let status = FileSystem.statusIfPresent(atPath: url.path)
            before[index] = status
            if let status, status.isRegularFile, let entry = stored.files[url.path], entry.matches(status) {
                digests[index] = entry.sha256
            }
        }
        let missing = urls.indices.filter { digests[$0] == nil }
        let started = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        let hashed = try await FileHasher.digests(of: missing.map { urls[$0] }, algorithms: [.sha256])
        var changedMemo = false
        for (index, digest) in zip(missing, hashed) {
            let sha256 = digest[.sha256]
            digests[index] = sha256
            guard let first = before[index], first.isRegularFile,
                let after = FileSystem.statusIfPresent(atPath: urls[index].path), after == first,
                after.size == digest.size,
                max(first.modifiedNanoseconds, first.changedNanoseconds) + settleNanoseconds < started
            else { continue }
            stored.files[urls[index].path] = Entry(first, sha256: sha256, stored: started)
            changedMemo = true
        }
        if changedMemo { save(stored) }
        return Result(digests: digests.map { $0 ?? "" }, remembered: urls.count - missing.count)
    }

    private func load() -> Stored {
        guard let data = FileSystem.contents(of: file), let stored = try? JSONDecoder().decode(Stored.self, from: data),
            stored.version == Stored().version
        else { return Stored() }
        return stored
    }

    private func save(_ memo: Stored) {
        var memo = memo
        if memo.files.count > capacity {
            let newest = memo.files.sorted { ($0.value.stored, $0.key) > ($1.value.stored, $1.key) }.prefix(capacity)
            memo.files = Dictionary(uniqueKeysWithValues: newest.map { ($0.key, $0.value) })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(memo) else { return }
        try? FileSystem.createDirectory(file.deletingLastPathComponent())
        try? AtomicFile.write(data, to: file)
    }
}
