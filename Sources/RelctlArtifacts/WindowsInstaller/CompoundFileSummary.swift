import Foundation

/// The two values of an MSI's summary information that wixl 0.101 takes from the clock and the
/// random generator, pinned in place: the creation and last-saved times (PIDs 12 and 13, FILETIMEs)
/// and the revision number (PID 9, the package code: a braced GUID). An MSI is a compound file
/// (MS-CFB); the summary information is its stream `\u{5}SummaryInformation`, a property set
/// (MS-OLEPS). Both values have a fixed length, so they are overwritten where they lie and no
/// other byte of the file moves: everything else wixl writes is already the same from run to run
/// (checked by `MSIReproducibilityCLITests`).
package enum CompoundFileSummary {
    package enum Problem: Error, Equatable, CustomStringConvertible {
        case notACompoundFile
        case malformed(String)
        case noSummary
        case missingProperty(Int)

        package var description: String {
            switch self {
            case .notACompoundFile: return "not a compound file (no D0 CF 11 E0 signature)"
            case .malformed(let what): return "malformed compound file: \(what)"
            case .noSummary: return "no \\005SummaryInformation stream"
            case .missingProperty(let id): return "the summary information has no property \(id) to pin"
            }
        }
    }

    /// Seconds between 1601-01-01 (FILETIME's origin) and 1970-01-01.
    static let filetimeOffset: Int64 = 11_644_473_600

    /// `bytes` with the summary's times set to `epoch` (Unix seconds) and its revision number to
    /// `revision` (`{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}`, 38 characters, as wixl writes it).
    package static func pinned(_ bytes: Data, epoch: Int, revision: String) throws -> Data {
        var file = [UInt8](bytes)
        let offsets = try streamOffsets(of: "\u{5}SummaryInformation", in: file)
        // The stream's bytes, read through its sector chain; written back the same way.
        var stream = offsets.map { file[$0] }
        try patch(&stream, epoch: epoch, revision: revision)
        for (index, offset) in offsets.enumerated() { file[offset] = stream[index] }
        return Data(file)
    }

    /// The property set's values, changed in place.
    static func patch(_ stream: inout [UInt8], epoch: Int, revision: String) throws {
        guard stream.count >= 48, u16(stream, 0) == 0xFFFE else { throw Problem.malformed("property set header") }
        let section = Int(u32(stream, 44))
        guard section + 8 <= stream.count else { throw Problem.malformed("section offset") }
        let count = Int(u32(stream, section + 4))
        var found: Set<Int> = []
        for index in 0..<count {
            let entry = section + 8 + index * 8
            guard entry + 8 <= stream.count else { throw Problem.malformed("property list") }
            let id = Int(u32(stream, entry))
            let at = section + Int(u32(stream, entry + 4))
            guard at + 4 <= stream.count else { throw Problem.malformed("property \(id) offset") }
            let type = u16(stream, at)
            switch (id, type) {
            case (12, 0x40), (13, 0x40):  // VT_FILETIME
                guard at + 12 <= stream.count else { throw Problem.malformed("property \(id)") }
                let ticks = UInt64((Int64(epoch) + filetimeOffset) * 10_000_000)
                for byte in 0..<8 { stream[at + 4 + byte] = UInt8(truncatingIfNeeded: ticks >> (8 * UInt64(byte))) }
                found.insert(id)
            case (9, 0x1E):  // VT_LPSTR: length (with the NUL), then the characters
                let length = Int(u32(stream, at + 4))
                let text = Array(revision.utf8)
                guard length == text.count + 1, at + 8 + length <= stream.count else {
                    throw Problem.malformed("revision number of \(length - 1) characters, not \(text.count)")
                }
                for (offset, byte) in text.enumerated() { stream[at + 8 + offset] = byte }
                found.insert(id)
            default: continue
            }
        }
        for id in [9, 12, 13] where !found.contains(id) { throw Problem.missingProperty(id) }
    }

    /// The file offsets of every byte of the stream `name`, in order: its sectors (or, below the
    /// mini-stream cutoff, its mini sectors inside the root's mini stream) followed through the
    /// allocation tables.
    static func streamOffsets(of name: String, in file: [UInt8]) throws -> [Int] {
        guard file.count >= 512, file.prefix(8) == [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] else {
            throw Problem.notACompoundFile
        }
        let sectorShift = Int(u16(file, 0x1E))
        let miniShift = Int(u16(file, 0x20))
        guard sectorShift == 9 || sectorShift == 12, miniShift == 6 else { throw Problem.malformed("sector sizes") }
        let sectorSize = 1 << sectorShift
        let fatSectors = Int(u32(file, 0x2C))
        let firstDirectory = u32(file, 0x30)
        let cutoff = Int(u32(file, 0x38))
        let firstMiniFAT = u32(file, 0x3C)
        var difat: [UInt32] = (0..<109).map { u32(file, 0x4C + 4 * $0) }
        var nextDIFAT = u32(file, 0x44)
        var guardCount = 0
        while nextDIFAT < 0xFFFF_FFFA, guardCount < 1 << 16 {
            let base = (Int(nextDIFAT) + 1) << sectorShift
            guard base + sectorSize <= file.count else { throw Problem.malformed("DIFAT sector") }
            for index in 0..<(sectorSize / 4 - 1) { difat.append(u32(file, base + 4 * index)) }
            nextDIFAT = u32(file, base + sectorSize - 4)
            guardCount += 1
        }
        var fat: [UInt32] = []
        for sector in difat.prefix(fatSectors) {
            let base = (Int(sector) + 1) << sectorShift
            guard base + sectorSize <= file.count else { throw Problem.malformed("FAT sector") }
            for index in 0..<(sectorSize / 4) { fat.append(u32(file, base + 4 * index)) }
        }
        func chain(_ start: UInt32, table: [UInt32]) throws -> [Int] {
            var sectors: [Int] = []
            var current = start
            while current < 0xFFFF_FFFA {
                guard Int(current) < table.count, sectors.count <= table.count else {
                    throw Problem.malformed("sector chain")
                }
                sectors.append(Int(current))
                current = table[Int(current)]
            }
            return sectors
        }
        func sectorOffset(_ sector: Int) -> Int { (sector + 1) << sectorShift }

        // The directory: 128-byte entries, UTF-16LE names.
        var entries: [(name: String, type: UInt8, start: UInt32, size: Int)] = []
        for sector in try chain(firstDirectory, table: fat) {
            let base = sectorOffset(sector)
            guard base + sectorSize <= file.count else { throw Problem.malformed("directory sector") }
            for index in 0..<(sectorSize / 128) {
                let entry = base + index * 128
                let nameLength = min(Int(u16(file, entry + 0x40)), 64)
                let units = stride(from: 0, to: max(0, nameLength - 2), by: 2).map { u16(file, entry + $0) }
                let size = Int(u32(file, entry + 0x78)) | (sectorShift == 12 ? Int(u32(file, entry + 0x7C)) << 32 : 0)
                entries.append(
                    (String(decoding: units, as: UTF16.self), file[entry + 0x42], u32(file, entry + 0x74), size))
            }
        }
        guard let root = entries.first, root.type == 5 else { throw Problem.malformed("root entry") }
        guard let stream = entries.first(where: { $0.type == 2 && $0.name == name }) else { throw Problem.noSummary }
        var offsets: [Int] = []
        offsets.reserveCapacity(stream.size)
        if stream.size < cutoff {
            var miniFAT: [UInt32] = []
            for sector in try chain(firstMiniFAT, table: fat) {
                let base = sectorOffset(sector)
                for index in 0..<(sectorSize / 4) { miniFAT.append(u32(file, base + 4 * index)) }
            }
            let container = try chain(root.start, table: fat)
            for mini in try chain(stream.start, table: miniFAT) {
                for byte in 0..<64 where offsets.count < stream.size {
                    let position = mini * 64 + byte
                    let sector = position >> sectorShift
                    guard sector < container.count else { throw Problem.malformed("mini stream") }
                    offsets.append(sectorOffset(container[sector]) + position & (sectorSize - 1))
                }
            }
        } else {
            for sector in try chain(stream.start, table: fat) {
                for byte in 0..<sectorSize where offsets.count < stream.size {
                    offsets.append(sectorOffset(sector) + byte)
                }
            }
        }
        guard offsets.count == stream.size, offsets.allSatisfy({ $0 < file.count }) else {
            throw Problem.malformed("stream shorter than its size")
        }
        return offsets
    }

    static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        guard at + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        guard at + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3])
            << 24
    }
}
