import Crypto
import Foundation
import RelctlBasics
import Synchronization

/// Where `LibArchiveWriter` sends the bytes libarchive produces: a file (`HashingFileSink`) or the
/// chunker that feeds the parallel gzip compressor (`GzipChunker`). Used from one thread.
package protocol ArchiveByteSink: AnyObject {
    /// Takes all of `bytes`; false (with `failure` set) when they cannot be taken.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    var failure: String? { get }
    /// The `errno` behind `failure`, when a system call failed.
    var failureCode: Int32? { get }
}

extension ArchiveByteSink {
    package var failureCode: Int32? { nil }
}

/// Hashes bytes on their way to another sink: an image layer's `diff_id` is the digest of the
/// uncompressed tar, which passes here before the compressor sees it.
package final class DigestingSink: ArchiveByteSink {
    private let next: any ArchiveByteSink
    private var hasher = SHA256()

    package init(forwardingTo next: any ArchiveByteSink) { self.next = next }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        hasher.update(bufferPointer: bytes)
        return next.write(bytes)
    }

    package var failure: String? { next.failure }
    package var failureCode: Int32? { next.failureCode }

    package func finalizeHex() -> String { FileHasher.hex(hasher.finalize()) }
}

/// A digest handed out of a `@Sendable` closure.
package final class DigestBox: Sendable {
    private let stored = Mutex<String?>(nil)
    package func set(_ value: String) { stored.withLock { $0 = value } }
    package var value: String? { stored.withLock { $0 } }
}
