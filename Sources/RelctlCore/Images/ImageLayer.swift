import CArchive
import Foundation

/// One filesystem layer written with the packaging code's writer and rules (bytewise order, one
/// fixed time, 0:0 owners, normalised modes, gzip without name or time), so the same inputs give
/// the same digest on any machine.
struct ImageLayer {
    /// The layer holds everything under `/usr` (binaries in `/usr/local/bin`, files in
    /// `/usr/local/share/<name>`): entries are written below this single top folder, which is how
    /// the archive writer lays out every archive.
    static let top = "usr"

    /// The compressed blob and the digest of the uncompressed tar (`diff_id`).
    struct Written {
        var descriptor: OCIDescriptor
        var diffID: String
    }

    /// The tar stream alone, for the `diff_id`: the same format as `tar.gz` without its filter.
    static let uncompressedTar = ArchiveWriterFormat(id: "tar", defaultLevel: 0, levels: 0...0, earliestTime: 0) { archive, _, _ in
        [archive_write_set_format_pax_restricted(archive), archive_write_add_filter_none(archive)]
    }

    /// Writes the layer into `blobs` (named by its digest) and returns its descriptor.
    /// - Parameter entries: paths relative to `/usr`, sorted and with parents, as `LayoutBuilder` gives them.
    static func write(_ entries: [ArchiveEntry], mtime: Int, level: Int?, into blobs: URL) throws -> Written {
        let temporary = blobs.appendingPathComponent(".layer.relctl-tmp-\(UInt64.random(in: 0...UInt64.max))")
        CleanupRegistry.shared.register(temporary)
        defer { CleanupRegistry.shared.unregister(temporary) }
        defer { unlink(temporary.path) }

        let compressed = try stream(entries, format: try ArchiveWriterFormats.format("tar.gz"), level: level, mtime: mtime, to: temporary.path)
        // The tar stream is written a second time, uncompressed, into a hash only: tar framing
        // costs little next to deflate, and nothing written is ever read back.
        let plain = try stream(entries, format: uncompressedTar, level: nil, mtime: mtime, to: "/dev/null")
        let digest = "sha256:" + compressed.sha256
        let destination = blobs.appendingPathComponent(compressed.sha256)
        if rename(temporary.path, destination.path) != 0 {
            throw ImageError.writeFailed(path: destination.path, reason: String(cString: strerror(errno)))
        }
        return Written(descriptor: OCIDescriptor(mediaType: OCIMediaType.layerGzip, digest: digest, size: compressed.size), diffID: "sha256:" + plain.sha256)
    }

    private static func stream(_ entries: [ArchiveEntry], format: ArchiveWriterFormat, level: Int?, mtime: Int, to path: String) throws -> (sha256: String, size: Int64) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ImageError.writeFailed(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let sink = HashingFileSink(descriptor: descriptor)
        let writer = try LibArchiveWriter(format: format, level: level, sink: sink, destination: path)
        try writer.write(ArchiveEntry(path: "", content: .directory, mode: 0o755, origin: "image layer"), top: top, mtime: mtime)
        for entry in entries { try writer.write(entry, top: top, mtime: mtime) }
        try writer.close()
        return (sink.finalizeHex(), sink.byteCount)
    }
}
