import Crypto
import Foundation
import RelctlBasics

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
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, urls.count))
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

    private static func digest(
        of url: URL, algorithms: Set<ChecksumAlgorithm>, buffer: UnsafeMutableRawBufferPointer
    ) throws -> FileDigest {
        let file: ReadableFile
        do {
            file = try ReadableFile(path: url.path)
            guard try file.status().isRegularFile else { throw ChecksumError.notRegularFile(path: url.path) }
        } catch let failure as SystemCallFailure {
            throw unreadable(url, failure)
        }
        // Optionals mutated in place: extracting a hasher from an enum would share its
        // copy-on-write context and force a copy on every update.
        var sha256: SHA256? = algorithms.contains(.sha256) ? SHA256() : nil
        var sha512: SHA512? = algorithms.contains(.sha512) ? SHA512() : nil
        var size: Int64 = 0
        while true {
            let count: Int
            do { count = try file.read(into: buffer) } catch { throw unreadable(url, error) }
            if count == 0 { break }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            sha256?.update(bufferPointer: chunk)
            sha512?.update(bufferPointer: chunk)
            size += Int64(count)
        }
        var digests: [ChecksumAlgorithm: String] = [:]
        if let sha256 { digests[.sha256] = hex(sha256.finalize()) }
        if let sha512 { digests[.sha512] = hex(sha512.finalize()) }
        return FileDigest(url: url, size: size, digests: digests)
    }

    private static func unreadable(_ url: URL, _ failure: SystemCallFailure) -> ChecksumError {
        ChecksumError.unreadable(path: url.path, reason: failure.description)
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
