import CArchive
import Crypto
import Foundation
import RelctlBasics

/// One archive being written by libarchive into an `ArchiveByteSink`. The `struct archive *` is an
/// OpaquePointer that libarchive does not let two threads share, so this class is deliberately not
/// Sendable: it is created, used and closed inside one task.
package final class LibArchiveWriter {
    private let archive: OpaquePointer
    private let sink: any ArchiveByteSink
    private let destination: String
    private let buffer: UnsafeMutableRawBufferPointer
    private var isOpen = false
    package private(set) var entryCount = 0
    /// Regular files written, with their SHA-256, when `recordFiles` (for the SBOM).
    package private(set) var files: [ArchivedFile] = []
    private let recordFiles: Bool

    /// Copy buffer size: files stream through it, so memory stays bounded whatever their size.
    package static let chunkSize = 1 << 18

    /// Sizes the file list once (an archive's entry count bounds it): grown by doubling, the list
    /// of 100,000 files briefly took twice its size (issue 31).
    package func reserveFiles(_ count: Int) {
        if recordFiles { files.reserveCapacity(count) }
    }

    /// - Parameters:
    ///   - workers: compression threads libarchive's filter may use (zstd).
    ///   - recordFiles: keep each file's path, size and SHA-256 as written (for the SBOM).
    package init(
        format: ArchiveWriterFormat, level: Int?, workers: Int = 1, sink: any ArchiveByteSink, destination: String,
        recordFiles: Bool = false
    ) throws {
        guard let archive = archive_write_new() else {
            throw PackagingError.writeFailed(path: destination, reason: "libarchive could not allocate a writer")
        }
        self.archive = archive
        self.sink = sink
        self.destination = destination
        self.recordFiles = recordFiles
        self.buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
        if let problem = format.apply(to: archive, level: level, workers: workers) {
            throw PackagingError.writeFailed(
                path: destination, reason: "libarchive rejected the \(format.id) settings: \(problem)")
        }
        // Without this libarchive pads the last block with zeros after the compressed stream.
        archive_write_set_bytes_in_last_block(archive, 1)
        // A plain tar stream for the chunked gzip: no 10 KiB blocking, so file data reaches the
        // chunker in the pieces it was written in, without a copy through libarchive's block buffer
        // (the bytes are the same: the last block is not padded either way).
        if format.chunkedGzip { archive_write_set_bytes_per_block(archive, 0) }
        // The writer itself is the callback's client: it outlives the archive it frees in deinit.
        let client = Unmanaged.passUnretained(self).toOpaque()
        let status = archive_write_open2(
            archive, client, nil,
            { _, client, bytes, count in
                guard let client, let bytes else { return -1 }
                let writer = Unmanaged<LibArchiveWriter>.fromOpaque(client).takeUnretainedValue()
                return writer.sink.write(UnsafeRawBufferPointer(start: bytes, count: count)) ? count : -1
            }, nil, nil)
        try check(status, "open")
        isOpen = true
    }

    deinit {
        archive_write_free(archive)
        buffer.deallocate()
    }

    /// Writes one entry under `top/`: header, then (for files) the data in chunks.
    package func write(_ entry: ArchiveEntry, top: String, mtime: Int) throws {
        guard let header = archive_entry_new() else {
            throw PackagingError.writeFailed(path: destination, reason: "out of memory")
        }
        defer { archive_entry_free(header) }
        let fullPath = entry.path.isEmpty || top.isEmpty ? top + entry.path : top + "/" + entry.path
        archive_entry_set_pathname_utf8(header, fullPath)
        archive_entry_set_mtime(header, time_t(mtime), 0)
        archive_entry_set_uid(header, 0)
        archive_entry_set_gid(header, 0)
        archive_entry_set_perm(header, mode_t(entry.mode))
        entryCount += 1
        switch entry.content {
        case .directory:
            archive_entry_set_filetype(header, RELCTL_AE_IFDIR)
            archive_entry_set_size(header, 0)
            try check(archive_write_header(archive, header), "write the header of \(entry.path)")
        case .symlink(let target):
            archive_entry_set_filetype(header, RELCTL_AE_IFLNK)
            archive_entry_set_symlink_utf8(header, target)
            archive_entry_set_size(header, 0)
            try check(archive_write_header(archive, header), "write the link \(entry.path)")
        case .generated(let data):
            archive_entry_set_filetype(header, RELCTL_AE_IFREG)
            archive_entry_set_size(header, la_int64_t(data.count))
            try check(archive_write_header(archive, header), "write the header of \(entry.path)")
            try data.withUnsafeBytes { bytes in
                if bytes.count > 0 { try writeData(bytes.baseAddress!, bytes.count, entry.path) }
            }
            if recordFiles {
                files.append(
                    ArchivedFile(
                        folder: top, entryPath: entry.path, digest: SHA256.hash(data: data), size: Int64(data.count)))
            }
        case .file(let source):
            let source = source.path
            let file: ReadableFile
            let size: Int64
            do {
                file = try ReadableFile(path: source)
                size = try file.status().size
            } catch {
                throw PackagingError.writeFailed(path: destination, reason: "cannot read \(source): \(error)")
            }
            archive_entry_set_filetype(header, RELCTL_AE_IFREG)
            archive_entry_set_size(header, la_int64_t(size))
            try check(archive_write_header(archive, header), "write the header of \(entry.path)")
            var copied: Int64 = 0
            var hasher = SHA256()
            func readSome(_ limit: Int) throws -> Int {
                do { return try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<limit])) } catch {
                    throw PackagingError.writeFailed(path: destination, reason: "cannot read \(source): \(error)")
                }
            }
            while copied < size {
                let count = try readSome(min(buffer.count, Int(size - copied)))
                guard count > 0 else { break }
                if recordFiles {
                    WorkProfile.shared.measure(.hashing) {
                        hasher.update(bufferPointer: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count))
                    }
                }
                try writeData(buffer.baseAddress!, count, entry.path)
                copied += Int64(count)
            }
            // The header already holds `size`: bytes beyond it (a file still being written) would be
            // dropped silently, so look for one more byte and compare the size once read.
            let grew = try copied == size && readSome(1) > 0
            let now = (try? file.status().size) ?? copied
            if copied != size || grew || now != size {
                throw PackagingError.writeFailed(
                    path: destination,
                    reason:
                        "\(source) changed size while it was being archived (\(size) bytes when started, \(grew && now <= size ? "more" : String(now)) now); something is still writing it: wait for it to finish (or stop it) and package again"
                )
            }
            if recordFiles {
                files.append(ArchivedFile(folder: top, entryPath: entry.path, digest: hasher.finalize(), size: size))
            }
        }
    }

    /// Flushes the compressor and the archive trailer into the sink.
    package func close() throws {
        guard isOpen else { return }
        isOpen = false
        try check(archive_write_close(archive), "finish")
    }

    private func writeData(_ bytes: UnsafeRawPointer, _ count: Int, _ path: String) throws {
        let written = archive_write_data(archive, bytes, count)
        if written < 0 { try check(Int32(truncatingIfNeeded: written), "write the data of \(path)") }
    }

    private func check(_ status: Int32, _ action: String) throws {
        guard status < ARCHIVE_WARN else { return }
        if let code = sink.failureCode, StorageFault.isFault(code) {
            throw PackagingError.writeRefused(path: destination, code: code)
        }
        let reason =
            sink.failure ?? archive_error_string(archive).map { String(cString: $0) } ?? "libarchive status \(status)"
        throw PackagingError.writeFailed(path: destination, reason: "cannot \(action): \(reason)")
    }
}
