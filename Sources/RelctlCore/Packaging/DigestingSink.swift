import Crypto
import Foundation
import Synchronization

/// Hashes bytes on their way to another sink: an image layer's `diff_id` is the digest of the
/// uncompressed tar, which passes here before the compressor sees it.
final class DigestingSink: ArchiveByteSink {
    private let next: any ArchiveByteSink
    private var hasher = SHA256()

    init(forwardingTo next: any ArchiveByteSink) { self.next = next }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        hasher.update(bufferPointer: bytes)
        return next.write(bytes)
    }

    var failure: String? { next.failure }

    func finalizeHex() -> String { FileHasher.hex(hasher.finalize()) }
}

/// A digest handed out of a `@Sendable` closure.
final class DigestBox: Sendable {
    private let stored = Mutex<String?>(nil)
    func set(_ value: String) { stored.withLock { $0 = value } }
    var value: String? { stored.withLock { $0 } }
}
