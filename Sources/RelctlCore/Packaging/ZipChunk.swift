import CDeflate
import Crypto
import Foundation
import RelctlBasics

/// A chunk's place in its entry.
package struct ZipChunk: Sendable {
    /// On an entry's first chunk only.
    package var header: ZipEntryHeader?
    package var isLast: Bool
    /// The whole entry's CRC-32, on its last chunk.
    package var crc: UInt32 = 0
    package var deflate: Bool
}
