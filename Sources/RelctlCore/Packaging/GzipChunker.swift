/// The producer side of `ChunkedGzipCompressor`: takes libarchive's tar stream in whatever pieces
/// it comes and hands it on in chunks of exactly `size` bytes (the last one shorter). Chunk
/// boundaries depend on nothing but the stream, so the archive is the same for any worker count.
/// Lives on the producer's thread.
final class GzipChunker: ArchiveByteSink {
    private let size: Int
    private let gate: ChunkGate
    private let deliver: ([UInt8]) -> Void
    private var current: [UInt8]
    private var filled = 0
    private(set) var failure: String?

    /// - Parameter deliver: called with each full chunk, in stream order, once a permit is held.
    init(size: Int, gate: ChunkGate, deliver: @escaping ([UInt8]) -> Void) {
        self.size = size
        self.gate = gate
        self.deliver = deliver
        current = [UInt8](repeating: 0, count: size)
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let take = min(size - filled, bytes.count - offset)
            current.withUnsafeMutableBytes { chunk in
                (chunk.baseAddress! + filled).copyMemory(from: bytes.baseAddress! + offset, byteCount: take)
            }
            filled += take
            offset += take
            if filled == size, !emit() { return false }
        }
        return true
    }

    /// Hands on the last, partial chunk.
    func finish() -> Bool {
        filled == 0 || emit()
    }

    private func emit() -> Bool {
        guard gate.acquire() else {
            failure = "stopped because writing the archive failed"
            return false
        }
        if filled < size { current.removeSubrange(filled...) }
        deliver(current)
        current = [UInt8](repeating: 0, count: size)
        filled = 0
        return true
    }
}
