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
    /// On the first chunk of a file the archive holds again later (a link `copy` makes): the writer
    /// remembers where its compressed data lies under this number.
    package var recordAs: Int? = nil
    /// On the one chunk of a later copy of such a file: it carries no bytes, and the writer
    /// repeats the compressed data recorded under this number.
    package var repeatOf: Int? = nil
}
