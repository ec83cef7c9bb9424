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
/// blocks when all are in use. The bytes written depend only on the chunks, never on `workers` or
/// timing. Buffers move between threads as arrays inside the mutex, so each has one owner at a time.
package final class ChunkPipeline<Tag: Sendable>: Sendable {
    package struct Stopped: Error {}

    private struct Buffers: Sendable {
        var input: [UInt8]
        var output: [UInt8]
    }

    private struct State: Sendable {
        var pool: [Buffers] = []
        var queue: [PipelineChunk<Tag>] = []
        var done: [Int: PipelineChunk<Tag>] = [:]
        /// Chunks handed out by `take` (each is submitted, unless the pipeline failed).
        var taken = 0
        var ended = false
        var failure: (any Error)?
    }

    package let capacity: Int
    package let workers: Int
    package let inputSize: Int
    package let outputSize: Int
    private let state = Mutex(State())
    /// Counts free buffer pairs (the producer waits), queued chunks (the workers wait), and
    /// compressed chunks (the writer waits). libdispatch traps when a semaphore is freed holding
    /// fewer permits than it was created with: all start at zero.
    private let free = DispatchSemaphore(value: 0)
    private let queued = DispatchSemaphore(value: 0)
    private let compressed = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - inputSize: the chunk size; `outputSize` the most one chunk can compress to.
    package init(workers: Int, inputSize: Int, outputSize: Int) {
        self.workers = max(1, workers)
        // Two per worker keep every worker busy while the writer catches up; one more for the producer.
        self.capacity = 2 * self.workers + 1
        self.inputSize = inputSize
        self.outputSize = outputSize
        // Each 1 MiB buffer is its own mapping, returned when the archive is done (`MemoryPolicy`).
        MemoryPolicy.apply()
        for _ in 0..<capacity { free.signal() }
    }

    // MARK: producer side (on the producer's thread)

    /// A chunk with empty buffers, once one is free; throws `Stopped` when the pipeline failed.
    package func take(tag: Tag) throws -> PipelineChunk<Tag> {
        free.wait()
        let (index, buffers) = try state.withLock { state -> (Int, Buffers?) in
            if state.failure != nil { throw Stopped() }
            defer { state.taken += 1 }
            return (state.taken, state.pool.popLast())
        }
        guard let buffers else {
            return PipelineChunk(
                index: index, input: Self.uninitialized(inputSize), output: Self.uninitialized(outputSize), tag: tag)
        }
        return PipelineChunk(index: index, input: buffers.input, output: buffers.output, tag: tag)
    }

    /// Hands a filled chunk to the workers; `chunk` is nil afterwards (its buffers are theirs now).
    package func submit(_ chunk: inout PipelineChunk<Tag>?) {
        guard chunk != nil else { return }
        state.withLock { state in
            state.queue.append(chunk!)
            chunk = nil
        }
        queued.signal()
    }

    /// Pages are touched only when bytes are written into them.
    private static func uninitialized(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    // MARK: running

    /// Runs `produce` (which calls `take` and `submit`), `workers` compressing threads and the
    /// writer, each on a thread of its own (`BlockingWork`), until all chunks are written or one
    /// side fails; the first failure is thrown and stops the others.
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
        let result = await withTaskGroup(of: Result?.self) { group in
            group.addTask {
                await BlockingWork.run { () -> Result? in
                    do {
                        let result = try produce(self)
                        self.endOfInput()
                        return result
                    } catch {
                        self.fail(error)
                        return nil
                    }
                }
            }
            for _ in 0..<workers {
                group.addTask {
                    await BlockingWork.run { () -> Result? in
                        do { try self.compressLoop(try makeCompressor()) } catch { self.fail(error) }
                        return nil
                    }
                }
            }
            group.addTask {
                await BlockingWork.run { () -> Result? in
                    do { try self.writeLoop(makeWriter()) } catch { self.fail(error) }
                    return nil
                }
            }
            var produced: Result?
            for await result in group where result != nil { produced = result }
            return produced
        }
        if let failure = state.withLock({ $0.failure }) { throw failure }
        guard let result else { throw Stopped() }
        return result
    }

    private func endOfInput() {
        state.withLock { $0.ended = true }
        compressed.signal()
        for _ in 0..<workers { queued.signal() }
    }

    /// Records the first failure and wakes every thread that may be waiting, so each sees it and stops.
    private func fail(_ error: any Error) {
        let first = state.withLock { state in
            guard state.failure == nil else { return false }
            state.failure = error
            return true
        }
        guard first else { return }
        free.signal()
        for _ in 0..<workers { queued.signal() }
        compressed.signal()
    }

    private func compressLoop(_ compress: (inout PipelineChunk<Tag>) throws -> Void) throws {
        while true {
            queued.wait()
            // Each signal stands for one queued chunk, or (after the last) one worker's end.
            var chunk: PipelineChunk<Tag>? = state.withLock { state in
                state.failure != nil || state.queue.isEmpty ? nil : state.queue.removeFirst()
            }
            guard chunk != nil else { return }
            try compress(&chunk!)
            let index = chunk!.index
            state.withLock { state in
                state.done[index] = chunk
                chunk = nil
            }
            compressed.signal()
        }
    }

    private func writeLoop(_ writer: any ChunkWriter<Tag>) throws {
        var next = 0
        var ready: [PipelineChunk<Tag>] = []
        while true {
            compressed.wait()
            let (stopped, ended) = state.withLock { state -> (Bool, Bool) in
                if state.failure != nil { return (true, false) }
                while let chunk = state.done.removeValue(forKey: next) {
                    ready.append(chunk)
                    next += 1
                }
                return (false, state.ended && next == state.taken)
            }
            if stopped { return }
            for index in ready.indices { try writer.write(ready[index]) }
            let recycled = ready.count
            state.withLock { state in
                for chunk in ready { state.pool.append(Buffers(input: chunk.input, output: chunk.output)) }
                ready.removeAll(keepingCapacity: true)
            }
            for _ in 0..<recycled { free.signal() }
            if ended {
                try writer.finish()
                return
            }
        }
    }
}
