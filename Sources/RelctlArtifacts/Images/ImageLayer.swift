import CArchive
import Foundation
import RelctlBasics

/// One filesystem layer written with the packaging code's writer and rules (bytewise order, one
/// fixed time, 0:0 owners, normalised modes, gzip without name or time), so the same inputs give
/// the same digest on any machine.
package struct ImageLayer {
    /// The layer holds everything under `/usr` (binaries in `/usr/local/bin`, files in
    /// `/usr/local/share/<name>`): entries are written below this single top folder, which is how
    /// the archive writer lays out every archive.
    package static let top = "usr"

    /// The compressed blob and the digest of the uncompressed tar (`diff_id`).
    package struct Written {
        package var descriptor: OCIDescriptor
        package var diffID: String
    }

    /// Writes the layer into `blobs` (named by its digest) and returns its descriptor. The tar
    /// stream is gzipped by the packaging code's parallel compressor; the `diff_id` (the digest of
    /// the uncompressed tar) is hashed from that same stream on its way to the compressor, so the
    /// layer is produced in one pass and nothing written is read back.
    /// - Parameter entries: paths relative to `/usr`, sorted and with parents, as `LayoutBuilder` gives them.
    /// - Parameter upload: when given, follows the compressed bytes into the registry while the
    ///   rest of the layer is still being compressed (`relctl image --push`).
    package static func write(
        _ entries: [ArchiveEntry], mtime: Int, level: Int?, workers: Int, into blobs: URL,
        upload: StreamedBlobUpload? = nil
    ) async throws -> Written {
        do {
            let written = try await write(entries, mtime: mtime, level: level, workers: workers, blobs, upload)
            upload?.finished(digest: written.descriptor.digest, size: written.descriptor.size)
            return written
        } catch {
            upload?.abandon()
            throw error
        }
    }

    private static func write(
        _ entries: [ArchiveEntry], mtime: Int, level: Int?, workers: Int, _ blobs: URL,
        _ upload: StreamedBlobUpload?
    ) async throws -> Written {
        let temporary = blobs.appendingPathComponent(Temporaries.name(".layer"))
        let path = temporary.path
        let descriptor = CleanupRegistry.shared.create(temporary)
        guard descriptor >= 0 else {
            let code = errno
            if StorageFault.isFault(code) { throw ImageError.writeRefused(path: path, code: code) }
            throw ImageError.writeFailed(path: path, reason: FileSystem.describe(errno: code))
        }
        defer { CleanupRegistry.shared.unregister(temporary) }
        defer { FileSystem.removeFile(atPath: temporary.path) }
        defer { close(descriptor) }
        let format = try ArchiveWriterFormats.format("tar.gz")
        let sink = HashingFileSink(descriptor: descriptor)
        upload?.started(file: temporary)
        let diffID = DigestBox()
        var written: (@Sendable (Int64) -> Void)?
        if let upload { written = { total in upload.written(total: total) } }
        _ = try await ChunkedGzipCompressor(level: format.effectiveLevel(level), workers: workers).compress(
            into: sink, destination: path, written: written
        ) { tarStream in
            let tee = DigestingSink(forwardingTo: tarStream)
            let writer = try LibArchiveWriter(format: format, level: level, workers: 1, sink: tee, destination: path)
            try writer.write(
                ArchiveEntry(path: "", content: .directory, mode: 0o755, origin: "image layer"), top: top, mtime: mtime)
            for entry in entries { try writer.write(entry, top: top, mtime: mtime) }
            try writer.close()
            diffID.set(tee.finalizeHex())
            return writer.entryCount
        }
        let compressed = (sha256: sink.finalizeHex(), size: sink.byteCount)
        let destination = blobs.appendingPathComponent(compressed.sha256)
        do { try AtomicFile.commit(temporary, to: destination) } catch let error as FileSystemError {
            throw ImageError.writeFailed(
                path: destination.path, reason: error.reason ?? "cannot move the layer into place")
        }
        return Written(
            descriptor: OCIDescriptor(
                mediaType: OCIMediaType.layerGzip, digest: "sha256:" + compressed.sha256, size: compressed.size),
            diffID: "sha256:" + (diffID.value ?? ""))
    }
}
