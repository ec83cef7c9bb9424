import CDeflate
import Dispatch
import RelctlBasics
import Synchronization

/// Writes a pipeline's chunks, in stream order, on the pipeline's writer thread (the only thread
/// that sees it, so it need not be Sendable).
package protocol ChunkWriter<Tag>: AnyObject {
    associatedtype Tag: Sendable
    func write(_ chunk: PipelineChunk<Tag>) throws
    /// After the last chunk (the zip's central directory).
    func finish() throws
}
