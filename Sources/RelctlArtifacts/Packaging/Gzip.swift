import CDeflate
import Foundation
import RelctlBasics

/// One gzip member of a whole buffer with libdeflate: no file name and a zero time in the header
/// (RFC 1952), so the same bytes always compress to the same member. Level 9 sets the header's
/// "maximum compression" flag, which lintian checks on `changelog.gz`.
package enum Gzip {
    package static func compress(
        _ data: Data, level: Int = CompressionLevels.wholeBuffer, destination: String
    ) throws -> Data {
        let compressor = try DeflateCompressor(level: level, destination: destination)
        return try withExtendedLifetime(compressor) {
            let bound = libdeflate_gzip_compress_bound(compressor.pointer, data.count)
            var output = Data(count: bound)
            let written = data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    libdeflate_gzip_compress(compressor.pointer, input.baseAddress, data.count, out.baseAddress, bound)
                }
            }
            guard written > 0 else {
                throw PackagingError.writeFailed(path: destination, reason: "libdeflate produced no gzip output")
            }
            output.count = written
            return output
        }
    }
}

extension Gzip {
    /// The member `compress` makes of the first `size` bytes of a temporary file, written into
    /// another (`output`, empty), without holding either in memory: libdeflate gets both as
    /// mappings (its whole-buffer call is what makes the bytes; a streaming compressor would make
    /// other ones), and the pages it is done with are given back as it goes
    /// (`FileMapping.trimmingBehindUse`). `crc` is the CRC-32 of those bytes, kept while they were
    /// written. Returns the member's size; `destination` (the package) is named in errors.
    package static func compress(
        file input: Int32, size: Int, crc: UInt32, into output: Int32, level: Int = CompressionLevels.wholeBuffer,
        destination: URL
    ) throws -> Int {
        let compressor = try DeflateCompressor(level: level, destination: destination.path)
        return try withExtendedLifetime(compressor) {
            let bound = libdeflate_deflate_compress_bound(compressor.pointer, size)
            let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, level >= 8 ? 2 : level < 2 ? 4 : 0, 255]
            let room = header.count + bound + 8
            do throws(SystemCallFailure) { try FileMapping.reserve(descriptor: output, count: room) } catch {
                throw AtomicFile.writeError(error.code, destination)
            }
            // The mappings end with `deflate`, before the file is cut to the member's size (a page
            // mapped past the end of a file is SIGBUS).
            let written = try deflate(
                input: input, size: size, output: output, room: room, header: header, crc: crc, bound: bound,
                compressor: compressor, destination: destination)
            let total = header.count + written + 8
            do throws(SystemCallFailure) { try FileMapping.truncate(descriptor: output, to: total) } catch {
                throw AtomicFile.writeError(error.code, destination)
            }
            return total
        }
    }

    /// Header, DEFLATE stream and trailer into a mapping of `output`; returns the stream's size.
    private static func deflate(
        input: Int32, size: Int, output: Int32, room: Int, header: [UInt8], crc: UInt32, bound: Int,
        compressor: DeflateCompressor, destination: URL
    ) throws -> Int {
        let source: FileMapping?
        let target: FileMapping
        do {
            source = try size > 0 ? FileMapping(descriptor: input, count: size, writable: false) : nil
            target = try FileMapping(descriptor: output, count: room, writable: true)
        } catch {
            throw AtomicFile.writeError(error.code, destination)
        }
        return try withExtendedLifetime((source, target)) {
            // RFC 1952 as libdeflate_gzip_compress writes it: no name, no time, XFL 2 at level 8 and
            // above (4 below 2), OS 255; the DEFLATE stream; CRC-32 and size, little-endian.
            header.withUnsafeBytes { target.base.copyMemory(from: $0.baseAddress!, byteCount: header.count) }
            let written = FileMapping.trimmingBehindUse(source.map { [$0, target] } ?? [target]) {
                libdeflate_deflate_compress(
                    compressor.pointer, source.map { UnsafeRawPointer($0.base) }, size, target.base + header.count,
                    bound)
            }
            guard written > 0 else {
                throw PackagingError.writeFailed(path: destination.path, reason: "libdeflate produced no gzip output")
            }
            let trailer = [crc, UInt32(truncatingIfNeeded: size)].flatMap { value in
                (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
            }
            trailer.withUnsafeBytes {
                (target.base + header.count + written).copyMemory(from: $0.baseAddress!, byteCount: trailer.count)
            }
            return written
        }
    }
}

/// One libdeflate compressor at one level, freed with its owner. Each worker thread keeps its own:
/// the match-finder tables (a few hundred KiB) are made once and reused for every chunk.
package final class DeflateCompressor {
    package let pointer: OpaquePointer

    /// `level` 1-12; `destination` names the archive in errors.
    package init(level: Int, destination: String) throws {
        guard let pointer = libdeflate_alloc_compressor(Int32(level)) else {
            throw PackagingError.writeFailed(
                path: destination, reason: "libdeflate could not allocate a level-\(level) compressor")
        }
        self.pointer = pointer
    }

    deinit { libdeflate_free_compressor(pointer) }
}
