import CDeflate
import RelctlBasics

/// Compresses chunks into complete gzip members (RFC 1952: header without name or time, DEFLATE
/// data, CRC-32 and size) with libdeflate, which compresses whole buffers 3-4x faster than zlib at
/// the same level and, at level 6, about 1% smaller than `gzip -6`. One per worker thread: the
/// compressor (a few hundred KiB of match-finder tables) is made once and reused for every chunk.
package final class GzipMember {
    private let compressor: DeflateCompressor
    private let destination: String

    /// `level` 1-12 (6 is `gzip -6`'s ratio); `destination` names the archive in errors.
    package init(level: Int, destination: String) throws {
        compressor = try DeflateCompressor(level: level, destination: destination)
        self.destination = destination
    }

    /// The most `count` bytes can take as one member.
    package static func bound(_ count: Int, level: Int) throws -> Int {
        let member = try GzipMember(level: level, destination: "")
        return withExtendedLifetime(member) { libdeflate_gzip_compress_bound(member.compressor.pointer, count) }
    }

    /// `chunk.input[..<count]` into `chunk.output` as one member.
    package func compress<Tag>(_ chunk: inout PipelineChunk<Tag>) throws {
        let count = chunk.count
        let written = chunk.input.withUnsafeBytes { input in
            chunk.output.withUnsafeMutableBytes { output in
                libdeflate_gzip_compress(compressor.pointer, input.baseAddress, count, output.baseAddress, output.count)
            }
        }
        // The bound always fits; zero would mean a libdeflate bug, never a partial member.
        if written == 0 {
            throw PackagingError.writeFailed(
                path: destination, reason: "libdeflate produced no output for a \(count)-byte chunk")
        }
        chunk.outputCount = written
    }
}
