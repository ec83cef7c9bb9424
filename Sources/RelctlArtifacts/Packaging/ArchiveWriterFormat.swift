import CArchive
import RelctlBasics

/// How libarchive is set up for one archive format id; the registry behind `ArchiveFormats.ids`.
package struct ArchiveWriterFormat: Sendable {
    package let id: String
    /// Used when `[archive] compression-level` is not set (gzip's and zip's 6, as `gzip -6`).
    package let defaultLevel: Int
    package let levels: ClosedRange<Int>
    /// Zip stores MS-DOS times, which cannot go before 1980.
    package let earliestTime: Int
    /// ...and its extended timestamp field is an unsigned 32-bit Unix time, which wraps after
    /// 2106-02-07 (unzip would show 2063 for 2200); clamp there so both times agree.
    package var latestTime: Int { earliestTime > 0 ? 4_294_967_294 : Int.max }
    /// libarchive writes the plain tar stream and `ChunkedGzipCompressor` gzips it with libdeflate
    /// on `workers` threads (tar.gz); otherwise libarchive's own filter compresses.
    package let chunkedGzip: Bool
    /// relctl writes the zip container itself and deflates entries with libdeflate on `workers`
    /// threads (`ZipArchiveWriter`); libarchive's zip writer would use zlib on one.
    package let parallelZip: Bool
    /// (archive, level, workers) → libarchive statuses. `workers` is the compression threads the
    /// archive may use; a format may only use it where the output does not depend on it.
    package let configure: @Sendable (OpaquePointer, Int, Int) -> [Int32]

    package init(
        id: String, defaultLevel: Int, levels: ClosedRange<Int>, earliestTime: Int, chunkedGzip: Bool = false,
        parallelZip: Bool = false, configure: @escaping @Sendable (OpaquePointer, Int, Int) -> [Int32]
    ) {
        self.id = id
        self.defaultLevel = defaultLevel
        self.levels = levels
        self.earliestTime = earliestTime
        self.chunkedGzip = chunkedGzip
        self.parallelZip = parallelZip
        self.configure = configure
    }

    /// `level` (or the default) moved into `levels`.
    package func effectiveLevel(_ level: Int?) -> Int {
        CompressionLevels.clamped(level ?? defaultLevel, to: levels)
    }

    /// Sets the format, filter and options on a fresh `archive_write`; nil when all succeeded,
    /// else libarchive's error text.
    package func apply(to archive: OpaquePointer, level: Int?, workers: Int) -> String? {
        for status in configure(archive, effectiveLevel(level), max(1, workers)) where status < ARCHIVE_WARN {
            return archive_error_string(archive).map { String(cString: $0) } ?? "libarchive status \(status)"
        }
        return nil
    }
}
