import CArchive
import RelctlBasics

/// Writer formats keyed by id. An unknown id is bad input listing the known ones.
package enum ArchiveWriterFormats {
    package static let all: [String: ArchiveWriterFormat] = Dictionary(
        uniqueKeysWithValues: [
            // pax restricted: plain ustar headers unless a name, link or size needs an extension. No
            // libarchive filter: the tar stream is gzipped in parallel chunks (ChunkedGzipCompressor).
            ArchiveWriterFormat(
                id: "tar.gz", defaultLevel: CompressionLevels.archiveDeflate, levels: CompressionLevels.deflateLevels,
                earliestTime: 0,
                chunkedGzip: true
            ) {
                archive, _, _ in
                [archive_write_set_format_pax_restricted(archive)]
            },
            ArchiveWriterFormat(id: "tar.xz", defaultLevel: CompressionLevels.archiveXz, levels: 0...9, earliestTime: 0)
            { archive, level, _ in
                [
                    archive_write_set_format_pax_restricted(archive), archive_write_add_filter_xz(archive),
                    archive_write_set_options(archive, "xz:compression-level=\(level)"),
                ]
            },
            // zstd's multi-threaded mode writes the same frames for any number of threads >= 1 (zstd
            // documents it; PackagingTests checks 1 vs 4), unlike its single-threaded mode (0), so
            // threads is never 0 and the archive does not depend on the core count.
            ArchiveWriterFormat(
                id: "tar.zst", defaultLevel: CompressionLevels.archiveZstd, levels: 1...19, earliestTime: 0
            ) {
                archive, level, workers in
                [
                    archive_write_set_format_pax_restricted(archive), archive_write_add_filter_zstd(archive),
                    archive_write_set_options(archive, "zstd:compression-level=\(level),zstd:threads=\(workers)"),
                ]
            },
            // Written by ZipArchiveWriter; libarchive's settings stay for anything that asks for them.
            ArchiveWriterFormat(
                id: "zip", defaultLevel: CompressionLevels.archiveDeflate, levels: CompressionLevels.deflateLevels,
                earliestTime: 315_532_800,
                parallelZip: true
            ) {
                archive, level, _ in
                [
                    archive_write_set_format_zip(archive),
                    archive_write_set_options(archive, "zip:compression=deflate,zip:compression-level=\(level)"),
                ]
            },
        ].map { ($0.id, $0) })

    package static func format(_ id: String) throws -> ArchiveWriterFormat {
        guard let format = all[id] else {
            throw PackagingError.unknownFormat(id: id)
        }
        return format
    }
}

/// The archive formats relctl can write, keyed by id. The packaging code registers a writer
/// for each; config validation uses the ids.
package enum ArchiveFormats {
    /// Known format ids, in the order they are listed to users.
    package static let ids: [String] = ["tar.gz", "tar.xz", "tar.zst", "zip"]

    /// The file extension for a format id (`.tar.gz`).
    package static func fileExtension(_ id: String) -> String { "." + id }
}

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
