import CDeflate

/// One complete gzip member (RFC 1952: header without name or time, DEFLATE data, CRC-32 and size)
/// compressed with libdeflate. libdeflate compresses whole buffers, 3-4x faster than zlib at the
/// same level and, at level 6, about 1% smaller than `gzip -6`.
enum GzipMember {
    /// Compresses `bytes` at `level` (1-12; 6 is `gzip -6`'s ratio); `destination` names the archive in errors.
    static func compress(_ bytes: [UInt8], level: Int, destination: String) throws -> [UInt8] {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            throw PackagingError.writeFailed(
                path: destination, reason: "libdeflate could not allocate a level-\(level) compressor")
        }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        return try bytes.withUnsafeBytes { input in
            try [UInt8](unsafeUninitializedCapacity: bound) { output, count in
                count = libdeflate_gzip_compress(
                    compressor, input.baseAddress, input.count, output.baseAddress, output.count)
                // The bound always fits; zero would mean a libdeflate bug, never a partial member.
                if count == 0 {
                    throw PackagingError.writeFailed(
                        path: destination, reason: "libdeflate produced no output for a \(input.count)-byte chunk")
                }
            }
        }
    }
}
