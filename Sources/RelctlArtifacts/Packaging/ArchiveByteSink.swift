import RelctlBasics

/// Where `LibArchiveWriter` sends the bytes libarchive produces: a file (`HashingFileSink`) or the
/// chunker that feeds the parallel gzip compressor (`GzipChunker`). Used from one thread.
package protocol ArchiveByteSink: AnyObject {
    /// Takes all of `bytes`; false (with `failure` set) when they cannot be taken.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    var failure: String? { get }
    /// The `errno` behind `failure`, when a system call failed.
    var failureCode: Int32? { get }
}

extension ArchiveByteSink {
    package var failureCode: Int32? { nil }
}
