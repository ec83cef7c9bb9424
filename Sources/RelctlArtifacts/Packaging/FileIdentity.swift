import Foundation
import RelctlBasics

/// A file's device and inode: names the same folder however the path to it is spelled.
package struct FileIdentity: Equatable {
    package var device: UInt64
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// Nil when nothing is at `path` yet.
    package init?(path: String) {
        guard let status = FileSystem.statusIfPresent(atPath: path) else { return nil }
        self.init(device: status.device, inode: status.inode)
    }
}
