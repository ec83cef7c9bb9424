import Foundation
import RelctlBasics

/// A System V `ar` archive as dpkg-deb writes a .deb: `!<arch>\n`, then per member a 60-byte
/// header (name without the GNU `/`, mtime, uid and gid 0, mode 100644, size) and the data,
/// padded to an even length with `\n`. `DebPackageWriter` writes the pieces as it makes them.
package enum ArStream {
    package static let magic = Array("!<arch>\n".utf8)

    /// A member's header; the `size` bytes after it are padded to an even length with `\n`.
    package static func header(_ name: String, mtime: Int, size: Int) -> [UInt8] {
        func field(_ text: String, _ width: Int) -> String {
            text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        let header =
            field(name, 16) + field(String(mtime), 12) + field("0", 6) + field("0", 6) + field("100644", 8)
            + field(String(size), 10) + "`\n"
        return Array(header.utf8)
    }
}
