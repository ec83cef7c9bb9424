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
