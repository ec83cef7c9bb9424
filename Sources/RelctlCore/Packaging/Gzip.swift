import CDeflate
import Foundation
import RelctlBasics

/// One gzip member of a whole buffer with libdeflate: no file name and a zero time in the header
/// (RFC 1952), so the same bytes always compress to the same member. Level 9 sets the header's
/// "maximum compression" flag, which lintian checks on `changelog.gz`.
package enum Gzip {
    package static func compress(_ data: Data, level: Int = CompressionLevels.wholeBuffer, destination: String) throws -> Data {
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
