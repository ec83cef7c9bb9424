import Crypto
import Foundation
import RelctlBasics
import Synchronization

/// Streams files through swift-crypto (SHA-NI where the CPU has it) with one reused buffer per
/// worker, and hashes many files in parallel. The reusable entry point for every area.
public enum FileHasher {
    /// Large enough to amortise the read(2) calls, small enough to stay in L2.
    package static let bufferSize = 1 << 20

    /// The lowercase hex SHA-256 of a file.
    public static func sha256(of url: URL) throws -> String {
        try digest(of: url, algorithms: [.sha256])[.sha256]
    }

    /// The lowercase hex SHA-512 of a file.
    package static func sha512(of url: URL) throws -> String {
        try digest(of: url, algorithms: [.sha512])[.sha512]
    }

    /// Hashes one file with every algorithm in one read pass.
    package static func digest(of url: URL, algorithms: Set<ChecksumAlgorithm>) throws -> FileDigest {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 64)
        defer { buffer.deallocate() }
        return try digest(of: url, algorithms: algorithms, buffer: buffer)
    }

    /// Hashes files in parallel (at most `jobs` at once, default one per core); results are in
    /// the order of `urls`. The first unreadable file is reported after all workers stop.
    package static func digests(
        of urls: [URL], algorithms: Set<ChecksumAlgorithm>, jobs: Int? = nil
    ) async throws -> [FileDigest] {
        guard !urls.isEmpty else { return [] }
        let workers = max(1, min(ParallelJobs.count(jobs), urls.count))
        // Largest first, so one big file does not start last and stretch the wall time.
        let sizes = urls.map { FileSystem.size(of: $0) ?? 0 }
        let order = urls.indices.sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        let results = await ParallelJobs.map(order, limit: workers) { index -> Result<FileDigest, any Error> in
            do {
                return .success(try await BlockingWork.run { try digest(of: urls[index], algorithms: algorithms) })
            } catch {
                return .failure(error)
            }
        }
        var byIndex: [Int: Result<FileDigest, any Error>] = [:]
        for (slot, index) in order.enumerated() { byIndex[index] = results[slot] }
        return try urls.indices.map { try byIndex[$0]!.get() }
    }

    /// Hashes the files `names` in `directory` in parallel, as `digests(of:)` does, into compact
    /// records in the order of `names`: `checksum` over 100,000 archives keeps 100,000 of these,
    /// with no `URL`, dictionary or hex text per file (issue 31).
    package static func hashFiles(
        named names: [String], in directory: URL, sha512: Bool, jobs: Int? = nil
    ) async throws -> HashedFiles {
        guard !names.isEmpty else { return HashedFiles(count: 0) }
        let workers = max(1, min(ParallelJobs.count(jobs), names.count))
        let folder = directory.path
        let paths = { @Sendable (index: Int) in
            folder.hasSuffix("/") ? folder + names[index] : folder + "/" + names[index]
        }
        let sizes = names.indices.map { FileSystem.size(atPath: paths($0)) ?? 0 }
        let order = Array(names.indices).sorted { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : $0 < $1 }
        let algorithms: Set<ChecksumAlgorithm> = sha512 ? [.sha256, .sha512] : [.sha256]
        // `workers` threads that each take the next file until none is left, with one buffer each:
        // a thread and a buffer per file cost more than hashing a small archive does. Each file's
        // record is written straight into its slot (no list of results on the side).
        let taken = SharedCounter()
        let slots = HashedFiles(count: names.count)
        let failures = await withTaskGroup(of: [(Int, any Error)].self) { group in
            for _ in 0..<workers {
                group.addTask {
                    await BlockingWork.run {
                        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 64)
                        defer { buffer.deallocate() }
                        var failed: [(Int, any Error)] = []
                        while true {
                            let slot = taken.next()
                            guard slot < order.count else { break }
                            let index = order[slot]
                            do {
                                let (size, sha256, sha512) = try hash(
                                    path: paths(index), algorithms: algorithms, buffer: buffer)
                                slots.set(
                                    index,
                                    HashedFile(size: size, sha256: SHA256Bytes(sha256!), sha512: sha512.map { hex($0) })
                                )
                            } catch {
                                failed.append((index, error))
                            }
                        }
                        return failed
                    }
                }
            }
            var all: [(Int, any Error)] = []
            for await batch in group { all += batch }
            return all
        }
        // The first unreadable file in the order given is the one reported, as `digests(of:)` does.
        if let first = failures.min(by: { $0.0 < $1.0 }) { throw first.1 }
        return slots
    }

    private static func digest(
        of url: URL, algorithms: Set<ChecksumAlgorithm>, buffer: UnsafeMutableRawBufferPointer
    ) throws -> FileDigest {
        let (size, sha256, sha512) = try WorkProfile.shared.measure(.hashing) {
            try hash(path: url.path, algorithms: algorithms, buffer: buffer)
        }
        var digests: [ChecksumAlgorithm: String] = [:]
        if let sha256 { digests[.sha256] = hex(sha256) }
        if let sha512 { digests[.sha512] = hex(sha512) }
        return FileDigest(url: url, size: size, digests: digests)
    }

    private static func hash(
        path: String, algorithms: Set<ChecksumAlgorithm>, buffer: UnsafeMutableRawBufferPointer
    ) throws -> (Int64, SHA256.Digest?, SHA512.Digest?) {
        let file: ReadableFile
        do {
            file = try ReadableFile(path: path)
            guard try file.status().isRegularFile else { throw ChecksumError.notRegularFile(path: path) }
        } catch let failure as SystemCallFailure {
            throw unreadable(path, failure)
        }
        // Optionals mutated in place: extracting a hasher from an enum would share its
        // copy-on-write context and force a copy on every update.
        var sha256: SHA256? = algorithms.contains(.sha256) ? SHA256() : nil
        var sha512: SHA512? = algorithms.contains(.sha512) ? SHA512() : nil
        var size: Int64 = 0
        while true {
            let count: Int
            do { count = try file.read(into: buffer) } catch { throw unreadable(path, error) }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            sha256?.update(bufferPointer: chunk)
            sha512?.update(bufferPointer: chunk)
            size += Int64(count)
        }
        return (size, sha256?.finalize(), sha512?.finalize())
    }

    private static func unreadable(_ path: String, _ failure: SystemCallFailure) -> ChecksumError {
        ChecksumError.unreadable(path: path, reason: failure.description)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Lowercase hex of a digest's bytes.
    package static func hex(_ digest: some Digest) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA512.byteCount * 2)
        digest.withUnsafeBytes { raw in
            for byte in raw {
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Hands out 0, 1, 2, … to any number of threads.
private final class SharedCounter: Sendable {
    private let value = Atomic<Int>(0)

    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).oldValue }
}

/// `FileHasher.hashFiles`' records, in the order of the names given. Each slot is written by
/// exactly one worker (the counter hands every index out once) and read only after all of them
/// have finished, so no two threads touch the same slot. Not an array: the records are handed on
/// without a copy (100,000 archives: 5.6 MB).
package final class HashedFiles: @unchecked Sendable {
    // A raw buffer, not an array property: workers writing through a mutating array access at
    // once would trip Swift's exclusivity checks even on distinct slots.
    private let storage: UnsafeMutableBufferPointer<HashedFile>

    package init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: HashedFile(size: -1, sha256: SHA256Bytes(hex: ""), sha512: nil))
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    fileprivate func set(_ index: Int, _ value: HashedFile) { storage[index] = value }

    package var count: Int { storage.count }

    package subscript(_ index: Int) -> HashedFile { storage[index] }
}

/// What hashing one file produced: its size and one lowercase hex digest per algorithm asked for.
package struct FileDigest: Sendable, Equatable {
    package var url: URL
    package var size: Int64
    package var digests: [ChecksumAlgorithm: String]

    package init(url: URL, size: Int64, digests: [ChecksumAlgorithm: String]) {
        self.url = url
        self.size = size
        self.digests = digests
    }

    /// The digest for `algorithm`; empty if it was not computed.
    package subscript(_ algorithm: ChecksumAlgorithm) -> String { digests[algorithm] ?? "" }
}

/// What `checksum` keeps of one file it hashed (`FileHasher.hashFiles`): 64 bytes, no heap for
/// the default SHA-256.
package struct HashedFile: Sendable {
    package var size: Int64
    package var sha256: SHA256Bytes
    /// Lowercase hex, when a SHA-512 was asked for.
    package var sha512: String?

    /// Lowercase hex of `algorithm`'s digest; empty when it was not computed.
    package func hex(_ algorithm: ChecksumAlgorithm) -> String {
        switch algorithm {
        case .sha256: return sha256.hex
        case .sha512: return sha512 ?? ""
        }
    }
}
