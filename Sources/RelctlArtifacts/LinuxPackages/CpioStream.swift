import Crypto
import Foundation
import RelctlBasics

/// A cpio archive in the SVR4 "newc" format (magic `070701`), rpm's payload, streamed into a
/// temporary file: ASCII-hex headers, names with the `./` prefix rpm expects, header+name and
/// data each padded to four bytes, ended by `TRAILER!!!`.
package struct CpioStream {
    package let output: PackageFileWriter
    package let mtime: Int

    package init(into output: PackageFileWriter, mtime: Int) {
        self.output = output
        self.mtime = mtime
    }

    /// One entry, its contents streamed from where they are; returns its size and SHA-256 (the
    /// rpm header lists both).
    package func add(_ name: String, _ file: PackagedFile, inode: Int) throws -> FileContents {
        var sha256 = SHA256()
        let size = try output.append(file, hashing: &sha256) { size in
            header(
                name: name, inode: inode, mode: file.fullMode, links: file.isDirectory ? 2 : 1, mtime: mtime, size: size
            )
        }
        try pad()
        return FileContents(size: size, digest: FileHasher.hex(sha256.finalize()))
    }

    package func finish() throws {
        try output.write(header(name: "TRAILER!!!", inode: 0, mode: 0, links: 1, mtime: 0, size: 0))
    }

    /// An entry's header and name, padded: `output.count` is where the entry starts.
    private func header(name: String, inode: Int, mode: UInt32, links: Int, mtime: Int, size: Int) -> [UInt8] {
        func hex(_ value: Int) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }
        let nameBytes = Array(name.utf8) + [0]
        let fields = [inode, Int(mode), 0, 0, links, mtime, size, 0, 0, 0, 0, nameBytes.count, 0]
        let header = Array(("070701" + fields.map(hex).joined()).utf8) + nameBytes
        return header + [UInt8](repeating: 0, count: (4 - (output.count + header.count) % 4) % 4)
    }

    private func pad() throws {
        try output.zeros((4 - output.count % 4) % 4)
    }
}
