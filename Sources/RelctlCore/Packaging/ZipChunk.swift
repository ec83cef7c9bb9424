import CDeflate
import Crypto
import Foundation

/// A chunk's place in its entry.
struct ZipChunk: Sendable {
    /// On an entry's first chunk only.
    var header: ZipEntryHeader?
    var isLast: Bool
    /// The whole entry's CRC-32, on its last chunk.
    var crc: UInt32 = 0
    var deflate: Bool
}
