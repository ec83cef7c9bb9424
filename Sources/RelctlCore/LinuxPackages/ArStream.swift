import Foundation
import RelctlBasics

/// A System V `ar` archive as dpkg-deb writes a .deb: `!<arch>\n`, then per member a 60-byte
/// header (name without the GNU `/`, mtime, uid and gid 0, mode 100644, size) and the data,
/// padded to an even length with `\n`.
package struct ArStream {
    package private(set) var data = Data("!<arch>\n".utf8)
    package let mtime: Int

    package init(mtime: Int) { self.mtime = mtime }

    package mutating func add(_ name: String, _ contents: Data) {
        func field(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        let header = field(name, 16) + field(String(mtime), 12) + field("0", 6) + field("0", 6) + field("100644", 8)
            + field(String(contents.count), 10) + "`\n"
        data.append(Data(header.utf8))
        data.append(contents)
        if contents.count % 2 == 1 { data.append(0x0A) }
    }
}
