import CDeflate

/// tar.gz on every core: libarchive writes the plain tar stream on a thread of its own, cut into
/// fixed 1 MiB chunks (`GzipChunker`); up to `workers` chunks are compressed at once with libdeflate,
/// each into a complete gzip member, and the members are written in stream order. A gzip file may
/// hold several members, which readers decompress as one stream (RFC 1952 2.2; gzip, zcat, GNU tar,
/// bsdtar, Python's tarfile and Go's compress/gzip all do).
///
/// Why members rather than one member of flushed deflate blocks (pigz's way): libdeflate only
/// compresses whole buffers into final blocks, and members cost 18 bytes per MiB. Independent
/// chunks lose the previous 32 KiB as dictionary; measured on the benchmark payload (104 MB of tar)
/// 1 MiB chunks are 0.17% larger than one libdeflate stream and still 1% smaller than `gzip -6`.
///
/// The archive depends only on the bytes and the level, never on `workers` or timing. Memory is
/// bounded by `ChunkGate`: at most 2 x workers + 1 chunks (plus their compressed output) exist.
struct ChunkedGzipCompressor {
    static let chunkSize = 1 << 20
    let level: Int
    let workers: Int

    init(level: Int, workers: Int) {
        self.level = level
        self.workers = max(1, workers)
    }

    /// glibc raises its mmap threshold each time a mapped block is freed, so after the first
    /// chunk, 1 MiB chunks come from the heaps of whichever threads compressed them and freed ones
    /// stay resident (measured: 64 MB peak RSS packaging five targets, 52 MB with the threshold
    /// fixed). A fixed 256 KiB threshold keeps every chunk its own mapping, returned when freed.
    private static let chunksAreMappings: Void = {
        relctl_fix_mmap_threshold(256 * 1024)
    }()

    private enum Step: Sendable {
        case produced(Int)
        case compressed(index: Int, member: [UInt8])
    }

    /// Runs `produce` on a thread of its own with a sink taking the uncompressed stream, compresses
    /// what it writes, and writes the gzip members into `sink` in order.
    /// - Returns: what `produce` returned (the entry count).
    func compress(
        into sink: HashingFileSink, destination: String,
        produce: @escaping @Sendable (any ArchiveByteSink) throws -> Int
    ) async throws -> Int {
        _ = Self.chunksAreMappings
        let capacity = 2 * workers + 1
        let gate = ChunkGate(capacity: capacity)
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        let level = self.level, workers = self.workers
        return try await withThrowingTaskGroup(of: Step.self) { group in
            group.addTask {
                defer { continuation.finish() }
                let count = try await BlockingWork.run {
                    let chunker = GzipChunker(size: Self.chunkSize, gate: gate) { continuation.yield($0) }
                    let count = try produce(chunker)
                    guard chunker.finish() else {
                        throw PackagingError.writeFailed(
                            path: destination, reason: chunker.failure ?? "cannot finish the gzip stream")
                    }
                    return count
                }
                return .produced(count)
            }
            var iterator = chunks.makeAsyncIterator()
            var received = 0, written = 0, running = 0
            var streamEnded = false
            var entries = 0
            var finished: [Int: [UInt8]] = [:]
            do {
                while true {
                    // Take a new chunk only while a worker is free and the chunk could have been
                    // produced: with `capacity` chunks unwritten the producer waits for a write,
                    // so waiting for it here would deadlock.
                    if !streamEnded, running < workers, received - written < capacity {
                        guard let chunk = await iterator.next() else {
                            streamEnded = true
                            continue
                        }
                        let index = received
                        received += 1
                        running += 1
                        group.addTask {
                            .compressed(
                                index: index,
                                member: try await BlockingWork.run {
                                    try GzipMember.compress(chunk, level: level, destination: destination)
                                })
                        }
                        continue
                    }
                    guard let step = try await group.next() else { break }
                    switch step {
                    case .produced(let count):
                        entries = count
                    case .compressed(let index, let member):
                        running -= 1
                        finished[index] = member
                        // Written here, on the pool: one write(2) of ~0.4 MiB per chunk into the
                        // page cache, hashed on the way, is microseconds next to compressing it.
                        while let next = finished.removeValue(forKey: written) {
                            let ok = next.withUnsafeBytes { sink.write($0) }
                            guard ok else {
                                throw PackagingError.writeFailed(
                                    path: destination, reason: sink.failure ?? "write failed")
                            }
                            written += 1
                            gate.release()
                        }
                    }
                }
            } catch {
                gate.cancel()
                throw error
            }
            return entries
        }
    }
}
