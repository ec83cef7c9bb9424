import Foundation
import RelctlBasics

/// A POSIX ustar archive built in memory, for the deb's control.tar and data.tar: every entry
/// owned by root:root with one mtime, in the order given (callers sort), paths as dpkg writes
/// them (`./usr/bin/velo-sql`, folders with a trailing `/`).
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
        data.append(Data(count: (512 - contents.count % 512) % 512))
    }

    /// The two zero blocks that end an archive.
    package mutating func finish() -> Data {
        data.append(Data(count: 1024))
        return data
    }

    private mutating func addHeader(path: String, mode: UInt32, size: Int, type: Character) throws {
        var header = [UInt8](repeating: 0, count: 512)
        let (prefix, name) = try Self.split(path)
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
        data.append(contentsOf: header)
    }

    /// ustar's name (100 bytes) and prefix (155 bytes), split at a `/`.
    package static func split(_ path: String) throws -> (prefix: String, name: String) {
        let bytes = Array(path.utf8)
        if bytes.count <= 100 { return ("", path) }
        for (index, byte) in bytes.enumerated().reversed() where byte == UInt8(ascii: "/") {
            if index <= 155, bytes.count - index - 1 <= 100, bytes.count - index - 1 > 0 {
                return (String(decoding: bytes[..<index], as: UTF8.self), String(decoding: bytes[(index + 1)...], as: UTF8.self))
            }
        }
        throw LinuxPackageError.pathTooLong(path: path)
    }
}
