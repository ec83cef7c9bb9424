import Foundation

/// A file open for reading, closed when the value goes away: the door for code that streams a
/// file in blocks (hashing, scanning) instead of loading it whole.
package final class ReadableFile {
    private let descriptor: Int32

    /// Opens `path` read-only (close-on-exec), following links.
    package init(path: String) throws(SystemCallFailure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallFailure(code: errno) }
        self.descriptor = descriptor
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        #endif
    }

    deinit { close(descriptor) }

    /// fstat(2) of the open file: what was opened, even if the path changes meanwhile.
    package func status() throws(SystemCallFailure) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallFailure(code: errno) }
        return FileStatus(info)
    }

    /// Reads up to `buffer.count` bytes; 0 at the end of the file. Retries an interrupted read.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallFailure) -> Int {
        while true {
            let count = Foundation.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw SystemCallFailure(code: errno) }
        }
    }
}
