import CDeflate
import RelctlBasics

/// One libdeflate compressor at one level, freed with its owner. Each worker thread keeps its own:
/// the match-finder tables (a few hundred KiB) are made once and reused for every chunk.
package final class DeflateCompressor {
    package let pointer: OpaquePointer

    /// `level` 1-12; `destination` names the archive in errors.
    package init(level: Int, destination: String) throws {
        guard let pointer = libdeflate_alloc_compressor(Int32(level)) else {
            throw PackagingError.writeFailed(
                path: destination, reason: "libdeflate could not allocate a level-\(level) compressor")
        }
        self.pointer = pointer
    }

    deinit { libdeflate_free_compressor(pointer) }
}
