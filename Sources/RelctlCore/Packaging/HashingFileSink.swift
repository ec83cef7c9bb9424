import Crypto
import Foundation

/// Where an archive's final bytes go: straight to a file descriptor, hashed on the way, so the
/// checksum never needs a second read of the archive.
final class HashingFileSink: ArchiveByteSink {
    let descriptor: Int32
    private var hasher = SHA256()
    /// Only when the release's checksum algorithm is SHA-512.
    private var sha512: SHA512?
    private(set) var byteCount: Int64 = 0
    private(set) var failure: String?

    init(descriptor: Int32, alsoSHA512: Bool = false) {
        self.descriptor = descriptor
        self.sha512 = alsoSHA512 ? SHA512() : nil
    }

    /// Writes all of `bytes`; false (with `failure` set) on an I/O error.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        hasher.update(bufferPointer: bytes)
        sha512?.update(bufferPointer: bytes)
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = FileSystem.describe(errno: errno)
                return false
            }
            offset += written
        }
        byteCount += Int64(bytes.count)
        return true
    }

    /// The lowercase hex SHA256 of everything written.
    func finalizeHex() -> String {
        FileHasher.hex(hasher.finalize())
    }

    /// The lowercase hex SHA-512 of everything written, when it was asked for.
    func finalizeSHA512Hex() -> String? {
        sha512.map { FileHasher.hex($0.finalize()) }
    }
}
