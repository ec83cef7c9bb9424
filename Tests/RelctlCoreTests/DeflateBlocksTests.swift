import CDeflate
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

/// Joining libdeflate's independent streams into one DEFLATE stream, as zip entries compressed in
/// parallel chunks need: checked with zlib (Python's), a decoder that shares no code with relctl.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct DeflateBlocksTests {
    /// Deterministic inputs that make libdeflate choose each block type: dynamic Huffman for
    /// text-like bytes, stored blocks for random ones, fixed Huffman for tiny inputs, long matches
    /// for zeros.
    static func inputs() -> [(String, [UInt8])] {
        var state: UInt64 = 88_172_645_463_325_252
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let text = (0..<700_000).map { _ in UInt8(ascii: "a") + UInt8(next() % 9) }
        let random = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: next()) }
        let zeros = [UInt8](repeating: 0, count: 200_000)
        let tiny = Array("hi".utf8)
        let one: [UInt8] = [7]
        return [("text", text), ("random", random), ("zeros", zeros), ("tiny", tiny), ("one", one), ("empty", [])]
    }

    static func deflate(_ input: [UInt8], level: Int32) throws -> [UInt8] {
        let compressor = try #require(libdeflate_alloc_compressor(level))
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_deflate_compress_bound(compressor, input.count) + 8
        var output = [UInt8](repeating: 0xA5, count: bound)
        let count = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                libdeflate_deflate_compress(compressor, source.baseAddress, source.count, target.baseAddress, bound - 8)
            }
        }
        try #require(count > 0)
        output.removeSubrange(count...)
        return output
    }

    /// Raw DEFLATE → bytes with zlib; also says whether the stream ended exactly at the last byte.
    static func inflate(_ stream: [UInt8], in directory: URL) throws -> (bytes: [UInt8], exact: Bool) {
        let input = directory.appendingPathComponent("stream.bin"), output = directory.appendingPathComponent("out.bin")
        try Data(stream).write(to: input)
        let result = try run(
            "python3",
            [
                "-c",
                """
                import sys, zlib
                d = zlib.decompressobj(-15)
                out = d.decompress(open(sys.argv[1], 'rb').read()) + d.flush()
                open(sys.argv[2], 'wb').write(out)
                print(d.eof and not d.unused_data)
                """, input.path, output.path,
            ])
        #expect(result.status == 0, "\(result)")
        return (try [UInt8](Data(contentsOf: output)), result.stdout == "True\n")
    }

    @Test func chunksJoinIntoOneStreamAtEveryLevel() throws {
        try withTemporaryDirectory { directory in
            let blocks = DeflateBlocks()
            let inputs = Self.inputs()
            for level: Int32 in [0, 1, 6, 9, 12] {
                // Every input once, as consecutive chunks of one stream, the last one final.
                var joined: [UInt8] = []
                var expected: [UInt8] = []
                for (index, (name, input)) in inputs.enumerated() {
                    var stream = try Self.deflate(input, level: level)
                    expected += input
                    let walk = try #require(
                        stream.withUnsafeBytes { blocks.walk($0) }, "level \(level), \(name): not walkable")
                    #expect((walk.end + 7) / 8 == stream.count, "level \(level), \(name): the walk ends early")
                    if index < inputs.count - 1 {
                        let count = stream.count
                        stream += [UInt8](repeating: 0xA5, count: 8)
                        let joinable = try #require(
                            stream.withUnsafeMutableBytes { blocks.makeContinuable($0, count: count) },
                            "level \(level), \(name)")
                        stream.removeSubrange(joinable...)
                    }
                    joined += stream
                }
                let inflated = try Self.inflate(joined, in: directory.url)
                #expect(inflated.exact, "level \(level): the joined stream does not end at its last byte")
                #expect(inflated.bytes == expected, "level \(level): zlib reads other bytes")
            }
        }
    }

    @Test func bytesThatAreNoDeflateStreamAreRefused() throws {
        let blocks = DeflateBlocks()
        // Block type 3 is reserved; a stored block whose NLEN does not complement LEN; a stream cut short.
        let text = try Self.deflate(Self.inputs()[0].1, level: 6)
        for bad: [UInt8] in [
            [0x07, 0x00], [0x01, 0x05, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5], Array(text.prefix(1000)), [],
        ] {
            #expect(bad.withUnsafeBytes { blocks.walk($0) } == nil, "\(bad.prefix(8))")
        }
    }

    @Test func dosTimesMatchLibarchive() {
        // 2023-11-14 22:13:20 UTC, the fixtures' SOURCE_DATE_EPOCH, as libarchive wrote it under UTC.
        #expect(ZipArchiveWriter.dosTime(1_700_000_000) == 0x576E_B1AA)
        #expect(ZipArchiveWriter.dosTime(0) == 0x0021_0000)
        #expect(ZipArchiveWriter.dosTime(4_354_819_200) == 0xFF9F_BF7D)
    }
}
