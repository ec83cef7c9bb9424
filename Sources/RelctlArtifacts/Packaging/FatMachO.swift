import Foundation
import RelctlBasics
import RelctlModel

/// A universal (fat) Mach-O joined from thin ones, as `lipo -create` writes it: a big-endian
/// header (`0xcafebabe`, the slice count), one `fat_arch` per slice (CPU type and subtype, offset,
/// size, alignment as a power of two), then each slice at an offset aligned to 2^14 (the page
/// size of Apple silicon, which lipo uses for arm64 and x86_64 alike). relctl writes it itself,
/// so a Linux machine with no `lipo` can release `universal-apple-darwin`.
package enum FatMachO {
    /// 2^14: every slice starts at a multiple of 16 KiB.
    package static let alignmentPower: UInt32 = 14

    /// One thin Mach-O to join: its file and what its header says.
    package struct Slice: Sendable {
        package var path: String
        package var cpuType: UInt32
        package var cpuSubtype: UInt32
        package var size: Int
    }

    /// Reads the thin Mach-O at `path`; throws naming the file when it is not one.
    package static func slice(path: String, target: String) throws -> Slice {
        guard let header = try BinaryHeader.read(path: path), header.container == .machO, !header.isFat,
            let file = FileSystem.contents(atPath: path), file.count >= 12
        else {
            let found = (try? BinaryHeader.read(path: path)).flatMap { $0?.summary } ?? "no Mach-O binary"
            throw PackagingError.wrongPlatform(
                binary: (path as NSString).lastPathComponent, path: path, target: target, found: found,
                reason: "a universal binary is joined from one thin Mach-O per macOS target")
        }
        let bytes = [UInt8](file.prefix(12))
        // cf fa ed fe / ce fa ed fe: little-endian; fe ed fa cf / fe ed fa ce: big-endian.
        let little = bytes[0] == 0xCF || bytes[0] == 0xCE
        func word(_ offset: Int) -> UInt32 {
            let slice = bytes[offset..<offset + 4]
            return (little ? slice.reversed() : Array(slice)).reduce(0) { $0 << 8 | UInt32($1) }
        }
        return Slice(path: path, cpuType: word(4), cpuSubtype: word(8), size: file.count)
    }

    /// The fat file's bytes for `slices`, in the order given.
    package static func join(_ slices: [Slice]) throws -> Data {
        let alignment = 1 << Int(alignmentPower)
        var output = Data()
        func put(_ value: UInt32) {
            output.append(contentsOf: [
                UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
            ])
        }
        put(0xCAFE_BABE)
        put(UInt32(slices.count))
        var offset = alignment
        var offsets: [Int] = []
        for slice in slices {
            guard offset + slice.size <= Int(UInt32.max) else {
                throw PackagingError.unsafePath(
                    path: slice.path, reason: "makes a universal binary over 4 GiB, which a fat Mach-O cannot hold")
            }
            put(slice.cpuType)
            put(slice.cpuSubtype)
            put(UInt32(offset))
            put(UInt32(slice.size))
            put(alignmentPower)
            offsets.append(offset)
            offset += (slice.size + alignment - 1) / alignment * alignment
        }
        for (slice, start) in zip(slices, offsets) {
            output.append(Data(repeating: 0, count: start - output.count))
            guard let bytes = FileSystem.contents(atPath: slice.path), bytes.count == slice.size else {
                throw PackagingError.unreadable(path: slice.path, reason: "it changed while it was read")
            }
            output.append(bytes)
        }
        return output
    }
}
