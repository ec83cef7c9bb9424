import CDeflate
import Dispatch
import RelctlBasics
import Synchronization

/// Every core on one archive, with memory that stays flat whatever the file sizes: a producer
/// thread fills fixed-size chunks (libarchive's tar stream, or a zip's files read straight from
/// disk), `workers` long-lived threads compress them, each with a compressor of its own made once,
/// and a writer thread writes them in stream order.
///
/// At most `capacity` chunks exist at once, filled, compressing, or compressed and waiting for an
/// earlier one; their buffers are allocated once (lazily, so a small archive touches little) and
/// then reused, so there is no allocation, page fault or zeroing per chunk, and the producer
/// waits when all are in use. The bytes written depend only on the chunks, never on `workers` or
/// timing. Chunks move between the threads through three `BlockingChannel`s of one `WorkStop`
/// (free buffers, filled chunks, compressed chunks), so each buffer has one owner at a time, and
/// the first failure anywhere (a full disk under the writer, a source file the producer cannot
/// read, a cancelled task) ends every wait of every thread at once: the pipeline always ends, and
/// it ends with that first error.
package final class ChunkPipeline<Tag: Sendable>: Sendable {
    /// What `take` and `submit` throw once another party failed; `run` throws the failure itself.
    package typealias Stopped = WorkStop.Stopped

    private struct Buffers: Sendable {
        var input: [UInt8]
        var output: [UInt8]
    }

    package let capacity: Int
    package let workers: Int
    package let inputSize: Int
    package let outputSize: Int
    private let stop = WorkStop()
    /// Buffer pairs the producer may fill: nil stands for one not allocated yet.
    private let free: BlockingChannel<Buffers?>
    private let queued: BlockingChannel<PipelineChunk<Tag>>
    private let compressed: BlockingChannel<PipelineChunk<Tag>>
    /// Chunks handed out by `take` (only the producer takes), and workers still running (the last
    /// to end closes `compressed`).
    private let taken = Atomic<Int>(0)
    private let running: Atomic<Int>

    /// - Parameters:
    ///   - inputSize: the chunk size; `outputSize` the most one chunk can compress to.
    package init(workers: Int, inputSize: Int, outputSize: Int) {
        self.workers = max(1, workers)
        // Two per worker keep every worker busy while the writer catches up; one more for the producer.
        self.capacity = 2 * self.workers + 1
        self.inputSize = inputSize
        self.outputSize = outputSize
        free = BlockingChannel(capacity: capacity, stop: stop)
        queued = BlockingChannel(capacity: capacity, stop: stop)
        compressed = BlockingChannel(capacity: capacity, stop: stop)
        running = Atomic(self.workers)
        // Each 1 MiB buffer is its own mapping, returned when the archive is done (`MemoryPolicy`).
        MemoryPolicy.apply()
        for _ in 0..<capacity { try? free.send(nil) }
    }

    // MARK: producer side (on the producer's thread)

    /// A chunk with empty buffers, once one is free; throws `Stopped` when the pipeline failed
    /// (at once, however often it is called after: libarchive writes its trailer even after a
    /// failed write).
    package func take(tag: Tag) throws(Stopped) -> PipelineChunk<Tag> {
        let buffers = try free.receive()
        let index = taken.add(1, ordering: .relaxed).oldValue
        guard let buffers = buffers ?? nil else {
            return PipelineChunk(
                index: index, input: Self.uninitialized(inputSize), output: Self.uninitialized(outputSize), tag: tag)
        }
        return PipelineChunk(index: index, input: buffers.input, output: buffers.output, tag: tag)
    }

    /// Hands a filled chunk to the workers; `chunk` is nil afterwards (its buffers are theirs now).
    package func submit(_ chunk: inout PipelineChunk<Tag>?) throws(Stopped) {
        guard let filled = chunk.take() else { return }
        // Moved on: a worker writes into the chunk's output buffer, which must not be shared.
        try queued.send(consume filled)
    }

    /// Pages are touched only when bytes are written into them.
    private static func uninitialized(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    // MARK: running

    /// Runs `produce` (which calls `take` and `submit`), `workers` compressing threads and the
    /// writer, each on a thread of its own (`BlockingWork`), until all chunks are written or one
    /// side fails; the first failure is thrown and stops the others. A cancelled task stops the
    /// pipeline too (`CancellationError`).
    /// - Parameters:
    ///   - makeCompressor: called once on each worker thread; its result compresses chunk after
    ///     chunk there (`input[..<count]` into `output`, setting `outputCount`).
    ///   - makeWriter: called on the writer thread.
    /// - Returns: what `produce` returned.
    package func run<Result: Sendable>(
        produce: @escaping @Sendable (ChunkPipeline<Tag>) throws -> Result,
        makeCompressor: @escaping @Sendable () throws -> (inout PipelineChunk<Tag>) throws -> Void,
        makeWriter: @escaping @Sendable () -> any ChunkWriter<Tag>
    ) async throws -> Result {
        let result = try await stop.whileCancellable {
            await withTaskGroup(of: Result?.self) { group in
                group.addTask {
                    await BlockingWork.run { () -> Result? in
                        do {
                            let result = try produce(self)
                            self.queued.close()
                            return result
                        } catch {
                            self.stop.fail(error)
                            return nil
                        }
                    }
                }
                for _ in 0..<workers {
                    group.addTask {
                        await BlockingWork.run { () -> Result? in
                            do { try self.compressLoop(try makeCompressor()) } catch { self.stop.fail(error) }
                            return nil
                        }
                    }
                }
                group.addTask {
                    await BlockingWork.run { () -> Result? in
                        do { try self.writeLoop(makeWriter()) } catch { self.stop.fail(error) }
                        return nil
                    }
                }
                var produced: Result?
                for await result in group where result != nil { produced = result }
                return produced
            }
        }
        if let failure = stop.failure { throw failure }
        guard let result else { throw Stopped() }
        return result
    }

    private func compressLoop(_ compress: (inout PipelineChunk<Tag>) throws -> Void) throws {
        defer { if running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { compressed.close() } }
        while var chunk = try queued.receive() {
            try WorkProfile.shared.measure(.compression) { try compress(&chunk) }
            try compressed.send(consume chunk)
        }
    }

    /// The buffers of a written chunk, back to the producer: the chunk is consumed, so the buffers
    /// stay uniquely owned and the producer fills them without a copy.
    private static func recycle(_ chunk: consuming PipelineChunk<Tag>) -> Buffers {
        Buffers(input: chunk.input, output: chunk.output)
    }

    private func writeLoop(_ writer: any ChunkWriter<Tag>) throws {
        var next = 0
        // Compressed out of order: each waits for the chunks before it (at most `capacity`).
        var early: [Int: PipelineChunk<Tag>] = [:]
        while let chunk = try compressed.receive() {
            // Moved into `early`: a reference left in `chunk` would still hold the buffers when
            // they go back to the producer, whose next write would then copy them whole.
            let index = chunk.index
            early[index] = consume chunk
            while let ready = early.removeValue(forKey: next) {
                try stop.check()
                try writer.write(ready)
                next += 1
                try free.send(Self.recycle(consume ready))
            }
        }
        guard early.isEmpty, next == taken.load(ordering: .relaxed) else {
            throw Stopped()
        }
        try writer.finish()
    }
}

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

/// Writes a pipeline's chunks, in stream order, on the pipeline's writer thread (the only thread
/// that sees it, so it need not be Sendable).
package protocol ChunkWriter<Tag>: AnyObject {
    associatedtype Tag: Sendable
    func write(_ chunk: PipelineChunk<Tag>) throws
    /// After the last chunk (the zip's central directory).
    func finish() throws
}

/// How relctl asks glibc to hand out large blocks. glibc raises its mmap threshold each time a
/// mapped block is freed, so after the first large array grows (a layout of 100,000 entries, a
/// list of commits, an archive's 1 MiB chunk buffers) every later block up to that size comes
/// from the heap of the thread that allocated it, and stays resident once freed. A fixed
/// 256 KiB threshold keeps each large block its own mapping, returned to the system when freed.
/// Measured at the largest scaling sizes (issue 31): `package` of 100,000 files 66 -> 63 MB peak
/// RSS, `notes` over 100,000 commits 63 -> 61 MB; archive compression was already under it.
package enum MemoryPolicy {
    package static let mmapThreshold = 256 * 1024

    /// Applies the policy; any number of calls, from any thread, set it once.
    package static func apply() { _ = applied }

    private static let applied: Void = relctl_fix_mmap_threshold(Int32(mmapThreshold))
}
