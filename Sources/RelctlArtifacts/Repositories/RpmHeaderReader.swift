import Foundation
import RelctlBasics

/// What a DNF repository's indexes say about one .rpm, read from its main header (rpm's file
/// format: a 96-byte lead, the signature header padded to 8 bytes, the main header). Bounded:
/// a header larger than 16 MiB is refused.
package struct RpmPackageInfo: Sendable {
    package struct Dependency: Sendable, Equatable {
        package var name: String
        package var flags: UInt32
        package var version: String
    }

    package var name = ""
    package var epoch: UInt32 = 0
    package var version = ""
    package var release = ""
    package var architecture = ""
    package var summary = ""
    package var description = ""
    package var packager = ""
    package var url = ""
    package var license = ""
    package var group = ""
    package var buildHost = ""
    package var sourceRPM = ""
    package var buildTime: UInt32 = 0
    package var installedSize: UInt64 = 0
    package var archiveSize: UInt64 = 0
    package var headerStart = 0
    package var headerEnd = 0
    package var provides: [Dependency] = []
    package var requires: [Dependency] = []
    package var files: [String] = []
    package var directories: Set<String> = []

    package static let limit = 16 << 20

    package init(reading url: URL) throws {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw RepositoryError.badInput(path: url.path, reason: "cannot open the .rpm")
        }
        defer { try? handle.close() }
        let lead = try handle.read(upToCount: 96) ?? Data()
        guard lead.count == 96, Array(lead.prefix(4)) == [0xED, 0xAB, 0xEE, 0xDB] else {
            throw RepositoryError.badInput(path: url.path, reason: "not an .rpm (no rpm lead)")
        }
        let signature = try Self.header(handle, source: url.path)
        let padding = (8 - signature.size % 8) % 8
        _ = try handle.read(upToCount: padding)
        headerStart = 96 + signature.size + padding
        let main = try Self.header(handle, source: url.path)
        headerEnd = headerStart + main.size
        let tags = main.tags
        func string(_ tag: Int) -> String { tags[tag]?.strings.first ?? "" }
        func number(_ tag: Int) -> UInt64 { tags[tag]?.numbers.first ?? 0 }
        name = string(1000)
        version = string(1001)
        release = string(1002)
        epoch = UInt32(number(1003))
        summary = string(1004)
        description = string(1005)
        buildTime = UInt32(number(1006))
        buildHost = string(1007)
        installedSize = tags[5009] != nil ? number(5009) : number(1009)
        license = string(1014)
        packager = string(1015)
        group = string(1016)
        self.url = string(1020)
        architecture = string(1022)
        sourceRPM = string(1044)
        archiveSize = tags[271] != nil ? number(271) : number(1046)
        if archiveSize == 0, let size = signature.tags[1007]?.numbers.first { archiveSize = size }
        provides = Self.dependencies(tags, names: 1047, flags: 1112, versions: 1113)
        requires = Self.dependencies(tags, names: 1049, flags: 1048, versions: 1050).filter {
            !$0.name.hasPrefix("rpmlib(")
        }
        let basenames = tags[1117]?.strings ?? []
        let dirnames = tags[1118]?.strings ?? []
        let indexes = tags[1116]?.numbers ?? []
        for (index, base) in basenames.enumerated() where index < indexes.count && Int(indexes[index]) < dirnames.count
        {
            files.append(dirnames[Int(indexes[index])] + base)
        }
        let modes = tags[1030]?.numbers ?? []
        for (index, file) in files.enumerated() where index < modes.count && modes[index] & 0o170000 == 0o040000 {
            directories.insert(file)
        }
        guard !name.isEmpty, !version.isEmpty, !architecture.isEmpty else {
            throw RepositoryError.badInput(path: url.path, reason: "the .rpm header lacks NAME, VERSION or ARCH")
        }
    }

    private static func dependencies(_ tags: [Int: Value], names: Int, flags: Int, versions: Int) -> [Dependency] {
        let name = tags[names]?.strings ?? []
        let flag = tags[flags]?.numbers ?? []
        let version = tags[versions]?.strings ?? []
        return name.indices.map { index in
            Dependency(
                name: name[index], flags: index < flag.count ? UInt32(truncatingIfNeeded: flag[index]) : 0,
                version: index < version.count ? version[index] : "")
        }
    }

    package struct Value {
        package var strings: [String] = []
        package var numbers: [UInt64] = []
    }

    private static func header(_ handle: FileHandle, source: String) throws -> (tags: [Int: Value], size: Int) {
        let intro = [UInt8](try handle.read(upToCount: 16) ?? Data())
        guard intro.count == 16, intro[0] == 0x8E, intro[1] == 0xAD, intro[2] == 0xE8 else {
            throw RepositoryError.badInput(path: source, reason: "malformed rpm header (bad magic)")
        }
        func be32(_ bytes: [UInt8], _ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        let count = be32(intro, 8)
        let dataSize = be32(intro, 12)
        guard count < 65536, dataSize < limit else {
            throw RepositoryError.badInput(path: source, reason: "the rpm header is larger than \(limit) bytes")
        }
        let index = [UInt8](try handle.read(upToCount: count * 16) ?? Data())
        let data = [UInt8](try handle.read(upToCount: dataSize) ?? Data())
        guard index.count == count * 16, data.count == dataSize else {
            throw RepositoryError.badInput(path: source, reason: "the rpm header ends early")
        }
        var tags: [Int: Value] = [:]
        for entry in 0..<count {
            let tag = be32(index, entry * 16)
            let type = be32(index, entry * 16 + 4)
            let offset = be32(index, entry * 16 + 8)
            let items = be32(index, entry * 16 + 12)
            guard offset >= 0, offset <= data.count, items >= 0, items < (1 << 20) else { continue }
            var value = Value()
            switch type {
            case 3, 4, 5:
                let width = type == 3 ? 2 : type == 4 ? 4 : 8
                guard offset + width * items <= data.count else { continue }
                for item in 0..<items {
                    var number: UInt64 = 0
                    for byte in 0..<width { number = number << 8 | UInt64(data[offset + item * width + byte]) }
                    value.numbers.append(number)
                }
            case 6, 8, 9:
                var at = offset
                for _ in 0..<(type == 6 ? 1 : items) {
                    guard let end = data[at...].firstIndex(of: 0) else { break }
                    value.strings.append(String(decoding: data[at..<end], as: UTF8.self))
                    at = end + 1
                }
            default:
                continue
            }
            tags[tag] = value
        }
        return (tags, 16 + count * 16 + dataSize)
    }
}
