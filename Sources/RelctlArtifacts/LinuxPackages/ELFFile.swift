import Foundation
import RelctlBasics

/// Just enough of ELF (the System V gABI) to tell a statically linked executable: an ELF file
/// with no `PT_INTERP` program header asks for no dynamic loader.
package enum ELFFile {
    package static func isStaticExecutable(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(64))
        guard bytes.count >= 52, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46 else {
            return false
        }
        let is64 = bytes[4] == 2
        let little = bytes[5] == 1
        func read(_ offset: Int, _ width: Int) -> Int? {
            guard offset >= 0, offset + width <= data.count else { return nil }
            let start = data.startIndex + offset
            let slice = [UInt8](data[start..<(start + width)])
            let ordered = little ? slice.reversed() : slice
            return ordered.reduce(0) { ($0 << 8) | Int($1) }
        }
        guard let type = read(16, 2), type == 2 || type == 3,
            let phoff = read(is64 ? 32 : 28, is64 ? 8 : 4),
            let phentsize = read(is64 ? 54 : 42, 2), let phnum = read(is64 ? 56 : 44, 2), phentsize > 0
        else { return false }
        var hasDynamic = false
        for index in 0..<phnum {
            guard let kind = read(phoff + index * phentsize, 4) else { return false }
            if kind == 3 { return false }  // PT_INTERP
            if kind == 2 { hasDynamic = true }  // PT_DYNAMIC
        }
        // A static-pie (type 3, DYN) has PT_DYNAMIC but no interpreter; a shared library has neither check.
        return type == 2 || hasDynamic
    }
}
