import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// Issue 48's "no wait without an end", below the command line: every wait of a `WorkStop`'s
/// channels ends when any party fails or the task is cancelled, and the chunk pipeline ends with
/// the writer's error however often the producer writes after it (libarchive writes its trailer
/// when a failed archive is freed: that second write waited forever before). A hang here fails
/// the suite's time limit instead of stalling the run.
@Suite(.removesTemporaries, .timeLimit(.minutes(30)))
struct WorkStopTests {
    struct Refused: Error, Equatable {}

    @Test func aFailureEndsEveryWaitOnEveryChannel() async throws {
        let stop = WorkStop()
        let empty = BlockingChannel<Int>(capacity: 1, stop: stop)
        let full = BlockingChannel<Int>(capacity: 1, stop: stop)
        try full.send(1)
        // One thread waits to receive from an empty channel, another to send into a full one.
        async let receiver: Bool = BlockingWork.run {
            do { _ = try empty.receive() } catch { return true }
            return false
        }
        async let sender: Bool = BlockingWork.run {
            do { try full.send(2) } catch { return true }
            return false
        }
        // Whenever the failure comes (before or while they wait), both waits end with `Stopped`.
        #expect(stop.fail(Refused()))
        #expect(!stop.fail(CancellationError()), "only the first failure is kept")
        #expect(await receiver)
        #expect(await sender)
        #expect(stop.failure is Refused)
        #expect(throws: WorkStop.Stopped.self) { try empty.receive() }
    }

    @Test func aClosedChannelIsDrainedThenEnds() throws {
        let channel = BlockingChannel<[UInt8]>(capacity: 3, stop: WorkStop())
        for value in 0..<3 { try channel.send([UInt8(value)]) }
        channel.close()
        var received: [[UInt8]] = []
        while let value = try channel.receive() { received.append(value) }
        #expect(received == [[0], [1], [2]])
    }

    @Test func cancellingTheTaskStopsTheWork() async throws {
        let stop = WorkStop()
        let channel = BlockingChannel<Int>(capacity: 1, stop: stop)
        let task = Task {
            try await stop.whileCancellable {
                try await BlockingWork.run { try channel.receive() }
            }
        }
        task.cancel()
        await #expect(throws: (any Error).self) { try await task.value }
        #expect(stop.failure is CancellationError)
    }

    /// The hang of issue 48 in miniature: the writer fails on the first chunk (/dev/full) while
    /// the producer has filled every buffer; the producer then goes on writing, as libarchive does
    /// when the failed archive is freed. It must get a refusal at once each time, and the
    /// pipeline must end with the writer's error.
    @Test(arguments: [1, 2, 4])
    func aProducerThatWritesOnAfterTheWriterFailedIsRefusedAtOnce(workers: Int) async throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let sink = HashingFileSink(descriptor: descriptor)
        let refusals = Mutex(0)
        do {
            _ = try await ChunkedGzipCompressor(level: 1, workers: workers).compress(
                into: sink, destination: "/dev/full"
            ) { chunker in
                let piece = [UInt8](repeating: 7, count: 64 << 10)
                // 40 MiB, far more than the pipeline's buffers, then a trailer after each refusal.
                for _ in 0..<640 {
                    let accepted = piece.withUnsafeBytes { chunker.write($0) }
                    if !accepted {
                        for _ in 0..<3 where !piece.withUnsafeBytes({ chunker.write($0) }) {
                            refusals.withLock { $0 += 1 }
                        }
                        throw PackagingError.writeFailed(path: "/dev/full", reason: chunker.failure ?? "?")
                    }
                }
                return 0
            }
            Issue.record("writing to /dev/full succeeded")
        } catch let error as PackagingError {
            #expect(error.storageFault == ENOSPC, "the writer's error, not the producer's: \(error)")
            #expect("\(error)".contains("No space left on device; free some space"), "\(error)")
        }
        #expect(refusals.withLock { $0 } == 3, "every write after the failure is refused")
    }

    /// Issue 62.4: a chunk's buffers go round the pipeline without a copy. A reference left behind
    /// (a channel's `send` held its copy until after the unlock, the writer's loop kept the chunk
    /// it had handed back) made the next write into that buffer copy all of it: `package` of the
    /// seed shape mapped 196 buffers of 1 MiB for its zip instead of 6, 0.1 s of CPU in copies and
    /// page faults. Over many small chunks, the producer and the compressors may only ever see the
    /// pipeline's own `capacity` buffers.
    @Test(arguments: [1, 2])
    func aChunksBuffersAreNeverCopied(workers: Int) async throws {
        let pipeline = ChunkPipeline<Void>(workers: workers, inputSize: 4096, outputSize: 4096)
        let inputs = Addresses(), outputs = Addresses()
        let chunks = 20_000
        let produced = try await pipeline.run { pipeline in
            for value in 0..<chunks {
                var chunk: PipelineChunk<Void>? = try pipeline.take(tag: ())
                let byte = [UInt8(truncatingIfNeeded: value)]
                byte.withUnsafeBytes { chunk!.append($0) }
                inputs.add(chunk!.input.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) })
                try pipeline.submit(&chunk)
            }
            return chunks
        } makeCompressor: {
            { (chunk: inout PipelineChunk<Void>) in
                let address = chunk.output.withUnsafeMutableBytes { buffer in
                    buffer[0] = 1
                    return UInt(bitPattern: buffer.baseAddress)
                }
                chunk.outputCount = 1
                outputs.add(address)
            }
        } makeWriter: {
            NullWriter()
        }
        #expect(produced == chunks)
        #expect(inputs.count <= pipeline.capacity, "input buffers seen: \(inputs.count)")
        #expect(outputs.count <= pipeline.capacity, "output buffers seen: \(outputs.count)")
    }

    /// Distinct buffer addresses, from several threads.
    final class Addresses: Sendable {
        private let seen = Mutex<Set<UInt>>([])
        func add(_ address: UInt) { seen.withLock { _ = $0.insert(address) } }
        var count: Int { seen.withLock { $0.count } }
    }

    final class NullWriter: ChunkWriter {
        func write(_ chunk: PipelineChunk<Void>) throws {}
        func finish() throws {}
    }
}
