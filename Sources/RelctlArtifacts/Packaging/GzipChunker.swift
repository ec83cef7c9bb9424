import RelctlBasics

/// The producer side of `ChunkedGzipCompressor`: takes libarchive's tar stream in whatever pieces
/// it comes and hands it on in chunks of exactly the pipeline's chunk size (the last one shorter).
/// Chunk boundaries depend on nothing but the stream, so the archive is the same for any worker
/// count. Lives on the producer's thread.
package final class GzipChunker: ArchiveByteSink {
    private let pipeline: ChunkPipeline<Void>
    private var current: PipelineChunk<Void>?
    package private(set) var failure: String?

    package init(pipeline: ChunkPipeline<Void>) {
        self.pipeline = pipeline
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            if current == nil {
                // Blocks while every buffer is in use; fails once the writer or a worker has.
                guard let chunk = try? pipeline.take(tag: ()) else {
                    failure = "stopped because writing the archive failed"
                    return false
                }
                current = chunk
            }
            let take = min(current!.room, bytes.count - offset)
            current!.append(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
            offset += take
            if current!.room == 0 {
                do { try pipeline.submit(&current) } catch {
                    failure = "stopped because writing the archive failed"
                    return false
                }
            }
        }
        return true
    }

    /// Hands on the last, partial chunk.
    package func finish() throws {
        try pipeline.submit(&current)
    }
}
