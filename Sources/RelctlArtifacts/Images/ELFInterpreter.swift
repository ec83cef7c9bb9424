import Foundation
import RelctlBasics

/// The program interpreter (`PT_INTERP`) an ELF executable names: the dynamic loader it needs,
/// such as glibc's `/lib64/ld-linux-x86-64.so.2`. A statically linked executable, a script or any
/// other file has none. A `scratch` image has no loader, so a binary that names one cannot start.
package enum ELFInterpreter {
    /// Loaders and their program headers sit at the start of the file; reading more would only
    /// cost time on large binaries.
    package static let readLimit = 64 * 1024

    /// The interpreter `path` names, or nil (not ELF, static, unreadable, or past the read limit).
    package static func of(path: String) -> String? {
        guard let file = try? ReadableFile(path: path) else { return nil }
        var bytes = [UInt8](repeating: 0, count: readLimit)
        var filled = 0
        while filled < readLimit {
            let count = bytes.withUnsafeMutableBytes { buffer in
                (try? file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))) ?? 0
            }
            if count == 0 { break }
            filled += count
        }
        return of(header: Array(bytes[..<filled]))
    }

    /// The interpreter named by the ELF image whose first bytes are `bytes`.
    package static func of(header bytes: [UInt8]) -> String? {
        guard bytes.count >= 52, bytes[0] == 0x7f, bytes[1] == 0x45, bytes[2] == 0x4c, bytes[3] == 0x46 else {
            return nil
        }
        let is64 = bytes[4] == 2
        let bigEndian = bytes[5] == 2
        func number(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= bytes.count else { return nil }
            var value = 0
            for index in 0..<size {
                let byte = Int(bytes[offset + (bigEndian ? index : size - 1 - index)])
                value = value << 8 | byte
            }
            return value
        }
        let table =
            is64
            ? (number(0x20, 8), number(0x36, 2), number(0x38, 2)) : (number(0x1c, 4), number(0x2a, 2), number(0x2c, 2))
        guard let start = table.0, let entrySize = table.1, let count = table.2, entrySize > 0 else { return nil }
        for index in 0..<min(count, 512) {
            let entry = start + index * entrySize
            // PT_INTERP is 3.
            guard let type = number(entry, 4), type == 3 else { continue }
            let offset = is64 ? number(entry + 0x08, 8) : number(entry + 0x04, 4)
            let size = is64 ? number(entry + 0x20, 8) : number(entry + 0x10, 4)
            guard let offset, let size, size > 0, offset + size <= bytes.count else { return nil }
            let text = bytes[offset..<(offset + size)].prefix { $0 != 0 }
            return String(decoding: text, as: UTF8.self)
        }
        return nil
    }
}
