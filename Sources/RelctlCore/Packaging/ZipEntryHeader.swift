import CDeflate
import Crypto
import Foundation

/// What an entry's header needs, known before its data is read.
struct ZipEntryHeader: Sendable {
    enum Kind: Sendable {
        case directory
        /// Deflated, CRC and sizes in the data descriptor.
        case file(size: Int64)
        /// Stored, the link's target as data, CRC and size in the local header.
        case symlink(target: [UInt8])
    }
    var name: [UInt8]
    var kind: Kind
    /// Permission bits with the file type (S_IFREG, S_IFDIR, S_IFLNK).
    var mode: UInt32
    var mtime: Int
}
