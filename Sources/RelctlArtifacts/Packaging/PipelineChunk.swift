import CDeflate
import Dispatch
import RelctlBasics
import Synchronization

/// One piece of an archive travelling through `ChunkPipeline`: filled by the producer, compressed
/// by a worker, written in order. `input` and `output` are buffers of the pipeline's pool, reused
/// chunk after chunk; only their first `count` / `outputCount` bytes mean anything.
package struct PipelineChunk<Tag: Sendable>: Sendable {
    package let index: Int
    package var input: [UInt8]
    package var count = 0
    package var output: [UInt8]
    package var outputCount = 0
    /// What the writer needs besides the bytes (a zip entry's header, where the entry ends).
    package var tag: Tag

    /// The unused space of `input`, for reading a file straight into it.
    package var room: Int { input.count - count }

    /// Appends `bytes` (at most `room` of them).
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let start = count
        input.withUnsafeMutableBytes { buffer in
            (buffer.baseAddress! + start).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        }
        count += bytes.count
    }
}
