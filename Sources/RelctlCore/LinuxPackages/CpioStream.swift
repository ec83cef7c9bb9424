import Foundation
import RelctlBasics

/// A cpio archive in the SVR4 "newc" format (magic `070701`), rpm's payload: ASCII-hex headers,
/// names with the `./` prefix rpm expects, header+name and data each padded to four bytes, ended
/// by `TRAILER!!!`.
package struct CpioStream {
    package private(set) var data = Data()
    package let mtime: Int

    package init(mtime: Int) { self.mtime = mtime }

    package mutating func add(_ name: String, mode: UInt32, inode: Int, contents: Data) {
        appendHeader(name: name, inode: inode, mode: mode, links: mode & 0o170000 == 0o040000 ? 2 : 1,
            mtime: mtime, size: contents.count)
        data.append(contents)
        pad()
    }

    package mutating func finish() -> Data {
        appendHeader(name: "TRAILER!!!", inode: 0, mode: 0, links: 1, mtime: 0, size: 0)
        return data
    }

    private mutating func appendHeader(name: String, inode: Int, mode: UInt32, links: Int, mtime: Int, size: Int) {
        func hex(_ value: Int) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }
        let nameBytes = Array(name.utf8) + [0]
        let fields = [inode, Int(mode), 0, 0, links, mtime, size, 0, 0, 0, 0, nameBytes.count, 0]
        data.append(Data(("070701" + fields.map(hex).joined()).utf8))
        data.append(contentsOf: nameBytes)
        pad()
    }

    private mutating func pad() {
        data.append(Data(count: (4 - data.count % 4) % 4))
    }
}
