import CDeflate
import Foundation
import RelctlBasics

/// A small `.tgz` held in memory, in the shape `helm package` writes (helm's `chartutil.Save`,
/// Go's archive/tar): regular files only (no folder entries), each mode 0644, uid/gid 0 with no
/// user or group names, ustar headers; a gzip header without name or time that may carry an extra
/// field and a comment (Helm's). Every entry is dated with the release's time instead of the
/// wall clock, so the same files give the same bytes on every run. Used for the chart package and
/// the flake tarball.
package struct ChannelTarball {
    /// Helm's gzip extra field (`headerBytes` in helm's save code) and comment, which tools that
    /// look for a Helm package find there.
    package static let helmExtra = Array("+aHR0cHM6Ly95b3V0dS5iZS96OVV6MWljandyTQo=".utf8)
    package static let helmComment = Array("Helm".utf8)

    package struct Entry {
        /// `chart/templates/deployment.yaml`.
        package var name: String
        package var data: [UInt8]

        package init(name: String, data: [UInt8]) {
            self.name = name
            self.data = data
        }
    }

    /// The whole `.tgz`; `destination` names the file in errors.
    package static func bytes(
        _ entries: [Entry], mtime: Int, destination: String, gzipExtra: [UInt8] = [], gzipComment: [UInt8] = []
    ) throws -> Data {
        var tar: [UInt8] = []
        for entry in entries {
            tar += try header(entry, mtime: mtime, destination: destination)
            tar += entry.data
            tar += [UInt8](repeating: 0, count: (512 - entry.data.count % 512) % 512)
        }
        tar += [UInt8](repeating: 0, count: 1024)
        return try gzip(tar, destination: destination, extra: gzipExtra, comment: gzipComment)
    }

    /// A ustar header as Go's archive/tar writes it for `{Name, Mode: 0644, Size, ModTime}`.
    package static func header(_ entry: Entry, mtime: Int, destination: String) throws -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        let (prefix, name) = try split(entry.name, destination: destination)
        func put(_ text: String, at offset: Int) {
            for (index, byte) in text.utf8.enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, width: Int, at offset: Int) {
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: width - 1 - digits.count) + digits, at: offset)
        }
        put(name, at: 0)
        octal(0o644, width: 8, at: 100)
        octal(0, width: 8, at: 108)
        octal(0, width: 8, at: 116)
        octal(entry.data.count, width: 12, at: 124)
        octal(mtime, width: 12, at: 136)
        block[156] = UInt8(ascii: "0")
        put("ustar\0", at: 257)
        put("00", at: 263)
        octal(0, width: 8, at: 329)
        octal(0, width: 8, at: 337)
        put(prefix, at: 345)
        // The checksum is summed with its own field as spaces, then written as six digits, NUL, space.
        for index in 148..<156 { block[index] = UInt8(ascii: " ") }
        let sum = block.reduce(0) { $0 + Int($1) }
        let digits = String(sum, radix: 8)
        put(String(repeating: "0", count: 6 - digits.count) + digits + "\0", at: 148)
        return block
    }

    /// ustar's name (100 bytes) and prefix (155 bytes), split at a `/` as Go's writer splits them.
    package static func split(_ path: String, destination: String) throws -> (prefix: String, name: String) {
        guard path.utf8.allSatisfy({ $0 < 0x80 && $0 != 0 }) else {
            throw PackagingError.writeFailed(
                path: destination, reason: "chart file `\(path)` has a name that is not ASCII; rename it")
        }
        if path.utf8.count <= 100 { return ("", path) }
        let bytes = Array(path.utf8)
        for index in stride(from: min(bytes.count - 1, 155), through: 1, by: -1) where bytes[index] == UInt8(ascii: "/")
        {
            if bytes.count - index - 1 <= 100, index <= 155 {
                return (
                    String(decoding: bytes[..<index], as: UTF8.self),
                    String(decoding: bytes[(index + 1)...], as: UTF8.self)
                )
            }
        }
        throw PackagingError.writeFailed(
            path: destination, reason: "chart file `\(path)` has a path too long for a chart package; shorten it")
    }

    /// RFC 1952 member: no name, no time, OS unknown (255, as Go writes it); FEXTRA and FCOMMENT
    /// when given.
    package static func gzip(_ data: [UInt8], destination: String, extra: [UInt8], comment: [UInt8]) throws -> Data {
        let flags: UInt8 = (extra.isEmpty ? 0 : 0x04) | (comment.isEmpty ? 0 : 0x10)
        var out: [UInt8] = [0x1F, 0x8B, 8, flags, 0, 0, 0, 0, 0, 255]
        if !extra.isEmpty { out += [UInt8(extra.count & 0xFF), UInt8(extra.count >> 8)] + extra }
        if !comment.isEmpty { out += comment + [0] }
        let compressor = try DeflateCompressor(level: CompressionLevels.wholeBuffer, destination: destination)
        let bound = libdeflate_deflate_compress_bound(compressor.pointer, data.count)
        var deflated = [UInt8](repeating: 0, count: bound)
        let written = data.withUnsafeBytes { input in
            deflated.withUnsafeMutableBytes { output in
                libdeflate_deflate_compress(
                    compressor.pointer, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard written > 0 else {
            throw PackagingError.writeFailed(path: destination, reason: "libdeflate produced no output")
        }
        out += deflated[..<written]
        let crc = data.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
        let size = UInt32(truncatingIfNeeded: data.count)
        for value in [crc, size] { out += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return Data(out)
    }
}
