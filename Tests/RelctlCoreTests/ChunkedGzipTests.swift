import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// The parallel gzip pipeline's own guarantees: chunk boundaries, and that a failure on either
/// side stops the other instead of hanging.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ChunkedGzipTests {
    /// Bytes that compress like text, deterministic.
    static func sample(_ count: Int) -> [UInt8] {
        var state: UInt32 = 2_463_534_242
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            return UInt8(ascii: "a") + UInt8(state % 7)
        }
    }

    /// Feeds `bytes` to the sink in uneven pieces, as libarchive does.
    static func feed(_ bytes: [UInt8], _ sink: any ArchiveByteSink) throws -> Int {
        var offset = 0, pieces = 0
        try bytes.withUnsafeBytes { all in
            while offset < all.count {
                let take = min(10_240 + 7 * pieces % 5_000, all.count - offset)
                guard sink.write(UnsafeRawBufferPointer(rebasing: all[offset..<offset + take])) else {
                    throw PackagingError.writeFailed(path: "test", reason: sink.failure ?? "?")
                }
                offset += take
                pieces += 1
            }
        }
        return pieces
    }

    func compress(_ input: [UInt8], workers: Int, into path: URL) async throws -> (bytes: [UInt8], result: Int) {
        let descriptor = open(path.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        let sink = HashingFileSink(descriptor: descriptor)
        let result = try await ChunkedGzipCompressor(level: 6, workers: workers).compress(
            into: sink, destination: path.path
        ) { chunker in
            try Self.feed(input, chunker)
        }
        close(descriptor)
        let written = try [UInt8](Data(contentsOf: path))
        #expect(sink.byteCount == written.count)
        let sha256sum = try run("sha256sum", [path.path]).stdout
        #expect(sha256sum.hasPrefix(sink.finalizeHex() + " "), "hashed in-stream: \(sha256sum)")
        return (written, result)
    }

    @Test func membersAreOneMiBChunksWhateverTheWorkers() async throws {
        try await withTemporaryDirectory { directory in
            // 3.5 chunks: three full ones and a partial last one.
            let input = Self.sample(3 * ChunkedGzipCompressor.chunkSize + ChunkedGzipCompressor.chunkSize / 2)
            let one = try await compress(input, workers: 1, into: directory.url.appendingPathComponent("1.gz"))
            let four = try await compress(input, workers: 4, into: directory.url.appendingPathComponent("4.gz"))
            #expect(one.bytes == four.bytes)
            #expect(one.result > 300, "the producer's result is returned")
            let check = try run(
                "python3",
                [
                    "-c",
                    """
                    import sys, zlib
                    data = open(sys.argv[1], 'rb').read()
                    sizes = []
                    while data:
                        d = zlib.decompressobj(31)
                        sizes.append(len(d.decompress(data)))
                        assert d.eof
                        data = d.unused_data
                    print(sizes)
                    """, directory.url.appendingPathComponent("4.gz").path,
                ])
            #expect(check.stdout == "[1048576, 1048576, 1048576, 524288]\n", "\(check)")
            let unzipped = try run("sh", ["-c", "zcat 4.gz | cksum"], in: directory.url)
            let expected = directory.url.appendingPathComponent("plain")
            try Data(input).write(to: expected)
            #expect(unzipped.stdout == (try run("sh", ["-c", "cksum < plain"], in: directory.url)).stdout)
        }
    }

    @Test func aFailingProducerEndsTheArchiveWithItsError() async throws {
        try await withTemporaryDirectory { directory in
            let descriptor = open(directory.url.appendingPathComponent("x.gz").path, O_WRONLY | O_CREAT, 0o644)
            defer { close(descriptor) }
            let sink = HashingFileSink(descriptor: descriptor)
            await #expect(throws: PackagingError.self) {
                try await ChunkedGzipCompressor(level: 6, workers: 2).compress(into: sink, destination: "x.gz") {
                    chunker in
                    _ = try Self.feed(Self.sample(5 << 20), chunker)
                    throw PackagingError.writeFailed(path: "x.gz", reason: "cannot read bin/velo-sql")
                }
            }
        }
    }

    /// A full disk (/dev/full) fails the writer while the producer is blocked waiting for room:
    /// the producer must be released and the error reported, not hang.
    @Test func aFailingWriteStopsTheProducer() async throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = HashingFileSink(descriptor: descriptor)
        do {
            _ = try await ChunkedGzipCompressor(level: 1, workers: 1).compress(into: sink, destination: "/dev/full") {
                chunker in
                try Self.feed(Self.sample(40 << 20), chunker)
            }
            Issue.record("writing to /dev/full succeeded")
        } catch let error as PackagingError {
            #expect("\(error)".contains("No space left"), "\(error)")
        }
    }
}
