import Foundation
import RelctlBasics

/// The symbol versions an ELF file needs from its libraries: the `Vernaux` names of its
/// `.gnu.version_r` section (`SHT_GNU_verneed`), as `readelf -V` lists them. Only the headers and
/// that section and its string table are read, whatever the binary's size.
package enum ELFVersionNeeds {
    /// `SHT_GNU_verneed`.
    private static let verneedType: UInt64 = 0x6fff_fffe
    /// More would be no binary a linker made.
    private static let sectionLimit = 1 << 16
    private static let readLimit = 16 << 20

    /// The newest `GLIBC_x.y` the file at `path` needs; nil when it needs none (a static binary,
    /// a musl one) or is no ELF file.
    package static func newestGlibc(path: String) throws -> (major: Int, minor: Int)? {
        var newest: (major: Int, minor: Int)?
        for name in try names(path: path) where name.hasPrefix("GLIBC_") {
            let parts = name.dropFirst(6).split(separator: ".")
            guard parts.count >= 2, let major = Int(parts[0]), let minor = Int(parts[1]) else { continue }
            if newest.map({ (major, minor) > ($0.major, $0.minor) }) ?? true { newest = (major, minor) }
        }
        return newest
    }

    /// Every version name needed, in file order.
    package static func names(path: String) throws -> [String] {
        let file: ReadableFile
        do { file = try ReadableFile(path: path) } catch {
            throw PythonWheelError.unreadable(path: path, reason: FileSystem.describe(errno: error.code))
        }
        func bytes(_ offset: UInt64, _ count: Int) throws -> [UInt8] {
            guard count >= 0, count <= readLimit else {
                throw PythonWheelError.unreadable(path: path, reason: "an ELF section of \(count) bytes")
            }
            var buffer = [UInt8](repeating: 0, count: count)
            let read = buffer.withUnsafeMutableBytes { (try? file.read(into: $0, at: Int64(offset))) ?? -1 }
            return read == count ? buffer : []
        }
        let header = try bytes(0, 64)
        guard header.count == 64, header[0] == 0x7F, header[1] == 0x45, header[2] == 0x4C, header[3] == 0x46 else {
            return []
        }
        let is64 = header[4] == 2
        let little = header[5] == 1
        func number(_ data: [UInt8], _ offset: Int, _ width: Int) -> UInt64? {
            guard offset >= 0, offset + width <= data.count else { return nil }
            let slice = data[offset..<(offset + width)]
            return (little ? slice.reversed() : Array(slice)).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        }
        guard let sectionsAt = number(header, is64 ? 40 : 32, is64 ? 8 : 4),
            let entrySize = number(header, is64 ? 58 : 46, 2), let count = number(header, is64 ? 60 : 48, 2),
            sectionsAt > 0, count > 0, count < sectionLimit, entrySize >= (is64 ? 64 : 40)
        else { return [] }
        let table = try bytes(sectionsAt, Int(entrySize * count))
        guard !table.isEmpty else { return [] }
        /// (type, offset, size, link) of section `index`.
        func section(_ index: Int) -> (type: UInt64, offset: UInt64, size: UInt64, link: Int)? {
            let base = index * Int(entrySize)
            guard let type = number(table, base + 4, 4),
                let offset = number(table, base + (is64 ? 24 : 16), is64 ? 8 : 4),
                let size = number(table, base + (is64 ? 32 : 20), is64 ? 8 : 4),
                let link = number(table, base + (is64 ? 40 : 24), 4)
            else { return nil }
            return (type, offset, size, Int(link))
        }
        var names: [String] = []
        for index in 0..<Int(count) {
            guard let needs = section(index), needs.type == verneedType, needs.link < Int(count),
                let strings = section(needs.link), needs.size <= UInt64(readLimit), strings.size <= UInt64(readLimit)
            else { continue }
            let data = try bytes(needs.offset, Int(needs.size))
            let text = try bytes(strings.offset, Int(strings.size))
            func string(_ at: UInt64) -> String? {
                guard at < UInt64(text.count) else { return nil }
                let tail = text[Int(at)...]
                guard let end = tail.firstIndex(of: 0) else { return nil }
                return String(decoding: text[Int(at)..<end], as: UTF8.self)
            }
            // Verneed: vn_version(2) vn_cnt(2) vn_file(4) vn_aux(4) vn_next(4); Vernaux: vna_hash(4)
            // vna_flags(2) vna_other(2) vna_name(4) vna_next(4). Walked with a bound on both chains.
            var at = 0
            var files = 0
            while files < 4096, let auxCount = number(data, at + 2, 2), let aux = number(data, at + 8, 4),
                let next = number(data, at + 12, 4)
            {
                var auxAt = at + Int(aux)
                for _ in 0..<Int(auxCount) {
                    guard let name = number(data, auxAt + 8, 4), let auxNext = number(data, auxAt + 12, 4) else {
                        break
                    }
                    if let value = string(name) { names.append(value) }
                    if auxNext == 0 { break }
                    auxAt += Int(auxNext)
                }
                if next == 0 { break }
                at += Int(next)
                files += 1
            }
        }
        return names
    }
}
