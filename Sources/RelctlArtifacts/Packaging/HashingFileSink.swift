import Crypto
import Foundation
import RelctlBasics
import Synchronization

/// Where an archive's final bytes go: straight to a file descriptor, hashed on the way, so the
/// checksum never needs a second read of the archive. Sendable so the writer thread of a
/// `ChunkPipeline` can own it while the caller waits; it is used by one thread at a time, so the
/// lock is never contended (one lock per write of ~0.4 MiB).
package final class HashingFileSink: ArchiveByteSink, Sendable {
    package let descriptor: Int32

    private struct State: Sendable {
        var hasher = SHA256()
        /// Only when the release's checksum algorithm is SHA-512.
        var sha512: SHA512?
        var byteCount: Int64 = 0
        var failure: String?
        var code: Int32?
    }

    private let state: Mutex<State>
    private let stop: WorkStop?

    /// - Parameter stop: the work this sink belongs to: once it stopped (another part failed, the
    ///   task was cancelled), writes fail at once instead of filling the disk further.
    package init(descriptor: Int32, alsoSHA512: Bool = false, stop: WorkStop? = nil) {
        self.descriptor = descriptor
        self.state = Mutex(State(sha512: alsoSHA512 ? SHA512() : nil))
        self.stop = stop
    }

    package var byteCount: Int64 { state.withLock { $0.byteCount } }
    package var failure: String? { state.withLock { $0.failure } }
    package var failureCode: Int32? { state.withLock { $0.code } }

    /// Why the last write failed, as the error to report for `path` (the archive being written):
    /// a storage fault keeps its `errno` (`PackagingError.writeRefused`).
    package func writeError(path: String) -> PackagingError {
        let (failure, code) = state.withLock { ($0.failure, $0.code) }
        if let code, StorageFault.isFault(code) { return .writeRefused(path: path, code: code) }
        return .writeFailed(path: path, reason: failure ?? "write failed")
    }

    /// Writes all of `bytes`; false (with `failure` set) on an I/O error, or once `stop` stopped.
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let stop, stop.isStopped {
            state.withLock { $0.failure = $0.failure ?? "stopped: another part of the work failed" }
            return false
        }
        return state.withLock { state in
            WorkProfile.shared.measure(.hashing) {
                state.hasher.update(bufferPointer: bytes)
                state.sha512?.update(bufferPointer: bytes)
            }
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    state.code = errno
                    state.failure = StorageFault.reason(errno)
                    return false
                }
                offset += written
            }
            state.byteCount += Int64(bytes.count)
            return true
        }
    }

    /// The lowercase hex SHA256 of everything written.
    package func finalizeHex() -> String {
        FileHasher.hex(state.withLock { $0.hasher.finalize() })
    }

    /// The lowercase hex SHA-512 of everything written, when it was asked for.
    package func finalizeSHA512Hex() -> String? {
        state.withLock { $0.sha512 }.map { FileHasher.hex($0.finalize()) }
    }
}
