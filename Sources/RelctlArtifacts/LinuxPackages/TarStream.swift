import Foundation
import RelctlBasics

/// A POSIX ustar archive built in memory, for the deb's control.tar (its data.tar is streamed to a
/// file with the same `header`): every entry owned by root:root with one mtime, in the order given
/// (callers sort), paths as dpkg writes them (`./usr/bin/velo-sql`, folders with a trailing `/`).
package struct TarStream {
    package private(set) var data = Data()
    package let mtime: Int

    package init(mtime: Int) { self.mtime = mtime }

    package mutating func addDirectory(_ path: String, mode: UInt32 = 0o755) throws {
        try addHeader(path: path, mode: mode, size: 0, type: "5")
    }

    package mutating func addFile(_ path: String, contents: Data, mode: UInt32) throws {
        try addHeader(path: path, mode: mode, size: contents.count, type: "0")
        data.append(contents)
        data.append(Data(count: Self.padding(contents.count)))
    }

    /// The two zero blocks that end an archive.
    package mutating func finish() -> Data {
        data.append(Data(count: 1024))
        return data
    }

    private mutating func addHeader(path: String, mode: UInt32, size: Int, type: Character) throws {
        data.append(contentsOf: try Self.header(path: path, mode: mode, size: size, type: type, mtime: mtime))
    }

    /// The zeros after `size` bytes of contents, up to the next 512-byte block.
    package static func padding(_ size: Int) -> Int { (512 - size % 512) % 512 }

    /// One entry's 512-byte header; `type` "0" for a file, "5" for a folder.
    package static func header(path: String, mode: UInt32, size: Int, type: Character, mtime: Int) throws -> [UInt8] {
        var header = [UInt8](repeating: 0, count: 512)
        let (prefix, name) = try split(path)
        func put(_ text: String, at offset: Int, width: Int) {
            for (index, byte) in text.utf8.prefix(width).enumerated() { header[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits, at: offset, width: width - 1)
        }
        put(name, at: 0, width: 100)
        octal(Int(mode), at: 100, width: 8)
        octal(0, at: 108, width: 8)
        octal(0, at: 116, width: 8)
        octal(size, at: 124, width: 12)
        octal(mtime, at: 136, width: 12)
        put(String(type), at: 156, width: 1)
        put("ustar", at: 257, width: 6)
        put("00", at: 263, width: 2)
        put("root", at: 265, width: 32)
        put("root", at: 297, width: 32)
        put(prefix, at: 345, width: 155)
        // The checksum is computed with its own field as eight spaces.
        for index in 148..<156 { header[index] = 0x20 }
        let sum = header.reduce(0) { $0 + Int($1) }
        octal(sum, at: 148, width: 7)
        header[155] = 0x20
        return header
    }

    /// ustar's name (100 bytes) and prefix (155 bytes), split at a `/`.
    package static func split(_ path: String) throws -> (prefix: String, name: String) {
        let bytes = Array(path.utf8)
        if bytes.count <= 100 { return ("", path) }
        for (index, byte) in bytes.enumerated().reversed() where byte == UInt8(ascii: "/") {
            if index <= 155, bytes.count - index - 1 <= 100, bytes.count - index - 1 > 0 {
                return (
                    String(decoding: bytes[..<index], as: UTF8.self),
                    String(decoding: bytes[(index + 1)...], as: UTF8.self)
                )
            }
        }
        throw LinuxPackageError.pathTooLong(path: path)
    }
}
