import CDeflate
import Crypto
import Foundation
import RelctlBasics

/// What an entry's header needs, known before its data is read.
package struct ZipEntryHeader: Sendable {
    package enum Kind: Sendable {
        case directory
        /// Deflated, CRC and sizes in the data descriptor.
        case file(size: Int64)
        /// Stored, the link's target as data, CRC and size in the local header.
        case symlink(target: [UInt8])
    }
    package var name: [UInt8]
    package var kind: Kind
    /// Permission bits with the file type (S_IFREG, S_IFDIR, S_IFLNK).
    package var mode: UInt32
    package var mtime: Int
}
