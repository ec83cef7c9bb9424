import CDeflate
import Crypto
import Foundation
import RelctlBasics

/// zip on every core. libarchive's zip writer compresses each entry with zlib on one thread and
/// cannot take data compressed elsewhere, so relctl writes the zip container itself (this file:
/// local headers, data descriptors, central directory, zip64 records) and compresses entries with
/// libdeflate in 1 MiB chunks on `workers` threads (`ChunkPipeline`); a file's chunks are joined
/// into the entry's one DEFLATE stream (`DeflateBlocks`). Measured on the CI payload (96 MiB of
/// ELF): 4.8 s on one core with zlib before, under 1 s on two cores after, and smaller.
///
/// The entries carry the same metadata libarchive wrote (checked against `zipinfo -v`): made by
/// Unix, version 2.0 (4.5 with zip64), deflate with a data descriptor for files (bit 3, the CRC
/// and sizes after the data), stored directories, the mode in the external attributes, the DOS
/// time in UTC plus the `UT` (mtime) and `ux` (uid/gid 0) extra fields, the UTF-8 flag for
/// non-ASCII names, and zip64 exactly where libarchive used it: a file over 3.75 GiB (its local
/// header and a 24-byte descriptor), a size or offset over 4 GiB in the central directory, and the
/// zip64 end records for more than 65,535 entries or a directory beyond 4 GiB. The bytes depend
/// only on the entries and the level, never on `workers`: chunk boundaries are fixed offsets in
/// each file.
///
/// A file the archive holds more than once (links `copy` turns `target/release/velo-sql.exe ->
/// ../../bin/velo-sql.exe` into a second entry of the same binary) is read and compressed once:
/// its later entries repeat the compressed data already written, read back from the archive.
/// The bytes are the ones compressing it again would give, since a file's chunks depend only on
/// its own bytes.
package enum ZipArchiveWriter {
    package static let chunkSize = 1 << 20

    /// MS-DOS date and time, in UTC (libarchive used local time, which relctl sets to UTC for zip),
    /// clamped to 1980-2107 as libarchive does.
    package static func dosTime(_ time: Int) -> UInt32 {
        var seconds = time_t(time)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        if parts.tm_year < 80 { return 0x0021_0000 }
        if parts.tm_year > 207 { return 0xFF9F_BF7D }
        let date =
            UInt32((parts.tm_year - 80) & 0x7F) << 9 | UInt32((parts.tm_mon + 1) & 0x0F) << 5
            | UInt32(parts.tm_mday & 0x1F)
        let clock =
            UInt32(parts.tm_hour & 0x1F) << 11 | UInt32(parts.tm_min & 0x3F) << 5
            | UInt32((parts.tm_sec & 0x3E) >> 1)
        return date << 16 | clock
    }

    /// Writes the top folder, then every entry of `layout`, into `sink`.
    /// - Returns: the number of entries, and the files with their SHA-256 when `recordFiles`.
    package static func write(
        _ layout: ArchiveLayout, level: Int, workers: Int, mtime: Int, into sink: HashingFileSink,
        destination: String, recordFiles: Bool
    ) async throws -> (Int, [ArchivedFile]) {
        let probe = try DeflateCompressor(level: level, destination: destination)
        // Room for the empty stored block that lets the next chunk continue the stream.
        let outputSize = withExtendedLifetime(probe) { libdeflate_deflate_compress_bound(probe.pointer, chunkSize) + 8 }
        let pipeline = ChunkPipeline<ZipChunk>(workers: workers, inputSize: chunkSize, outputSize: outputSize)
        // The top folder, then the layout's own entries: not joined into a new array (a copy of
        // every entry).
        let folder = ArchiveEntry(path: "", content: .directory, mode: 0o755, origin: "archive folder")
        let top = layout.top
        let repeated = repeatedSources(layout.entries)
        do {
            return try await pipeline.run { pipeline in
                var producer = ZipProducer(
                    pipeline: pipeline, mtime: mtime, destination: destination, recordFiles: recordFiles,
                    repeated: repeated)
                producer.reserveFiles(layout.entries.count)
                if layout.hasTopFolder { try producer.add(folder, top: top) }
                for entry in layout.entries { try producer.add(entry, top: top) }
                return (layout.entries.count + (layout.hasTopFolder ? 1 : 0), producer.files)
            } makeCompressor: {
                let compressor = try EntryCompressor(level: level, destination: destination)
                return { chunk in try compressor.compress(&chunk) }
            } makeWriter: {
                ZipContainer(sink: sink, destination: destination)
            }
        } catch is ChunkPipeline<ZipChunk>.Stopped {
            throw PackagingError.writeFailed(path: destination, reason: "the zip stopped unfinished")
        }
    }

    /// The source files more than one entry reads. A tree's walked files are distinct files, so a
    /// repeat always involves an entry placed by path (a binary, a listed file, a link's copy):
    /// only those are collected, and the walked ones are looked up, never stored (100,000 paths
    /// would be megabytes).
    package static func repeatedSources(_ entries: [ArchiveEntry]) -> Set<String> {
        var counts: [String: Int] = [:]
        for entry in entries where !entry.isWalked {
            if let source = entry.sourcePath { counts[source, default: 0] += 1 }
        }
        guard !counts.isEmpty else { return [] }
        for entry in entries where entry.isWalked {
            if let source = entry.sourcePath, counts[source] != nil { counts[source]! += 1 }
        }
        return Set(counts.compactMap { $0.value > 1 ? $0.key : nil })
    }
}

/// Reads each file straight into pipeline chunks (no copy), computing the CRC-32 on the way (and
/// the SHA-256 for the SBOM). Lives on the producer thread.
private struct ZipProducer {
    let pipeline: ChunkPipeline<ZipChunk>
    let mtime: Int
    let destination: String
    let recordFiles: Bool
    var files: [ArchivedFile] = []
    /// Sources read by more than one entry, and what their first entry found: the writer's number
    /// for its compressed data, its CRC-32, size and SHA-256.
    let repeated: Set<String>
    private var firstCopies: [String: (id: Int, crc: UInt32, size: Int64, digest: SHA256.Digest?)] = [:]

    init(
        pipeline: ChunkPipeline<ZipChunk>, mtime: Int, destination: String, recordFiles: Bool, repeated: Set<String>
    ) {
        self.pipeline = pipeline
        self.mtime = mtime
        self.destination = destination
        self.recordFiles = recordFiles
        self.repeated = repeated
    }

    /// Sizes the file list once, as `LibArchiveWriter.reserveFiles` does.
    mutating func reserveFiles(_ count: Int) {
        if recordFiles { files.reserveCapacity(count) }
    }

    mutating func add(_ entry: ArchiveEntry, top: String) throws {
        let path = entry.path.isEmpty || top.isEmpty ? top + entry.path : top + "/" + entry.path
        let permissions = entry.mode & 0o7777
        switch entry.content {
        case .directory:
            let header = ZipEntryHeader(
                name: Array((path + "/").utf8), kind: .directory, mode: 0o040000 | permissions, mtime: mtime)
            try submitWhole(header, deflate: false)
        case .symlink(let target):
            let header = ZipEntryHeader(
                name: Array(path.utf8), kind: .symlink(target: Array(target.utf8)), mode: 0o120000 | permissions,
                mtime: mtime)
            try submitWhole(header, deflate: false)
        case .generated(let data):
            let header = ZipEntryHeader(
                name: Array(path.utf8), kind: .file(size: Int64(data.count)), mode: 0o100000 | permissions,
                mtime: mtime)
            var chunk: PipelineChunk<ZipChunk>? = try pipeline.take(
                tag: ZipChunk(header: header, isLast: true, deflate: true))
            data.withUnsafeBytes { chunk!.append($0) }
            chunk!.tag.crc = data.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
            try pipeline.submit(&chunk)
            if recordFiles {
                files.append(
                    ArchivedFile(
                        folder: top, entryPath: entry.path, digest: SHA256.hash(data: data), size: Int64(data.count)))
            }
        case .file(let source):
            try addFile(source.path, path: path, permissions: permissions, top: top, entryPath: entry.path)
        }
    }

    private func submitWhole(_ header: ZipEntryHeader, deflate: Bool) throws {
        var chunk: PipelineChunk<ZipChunk>? = try pipeline.take(
            tag: ZipChunk(header: header, isLast: true, deflate: deflate))
        if case .symlink(let target) = header.kind {
            chunk!.tag.crc = target.withUnsafeBytes { UInt32(libdeflate_crc32(0, $0.baseAddress, $0.count)) }
        }
        try pipeline.submit(&chunk)
    }

    private mutating func addFile(
        _ source: String, path: String, permissions: UInt32, top: String, entryPath: String
    ) throws {
        if let first = firstCopies[source] {
            let header = ZipEntryHeader(
                name: Array(path.utf8), kind: .file(size: first.size), mode: 0o100000 | permissions, mtime: mtime)
            var chunk: PipelineChunk<ZipChunk>? = try pipeline.take(
                tag: ZipChunk(header: header, isLast: true, crc: first.crc, deflate: false, repeatOf: first.id))
            try pipeline.submit(&chunk)
            if let digest = first.digest {
                files.append(ArchivedFile(folder: top, entryPath: entryPath, digest: digest, size: first.size))
            }
            return
        }
        let recordAs = repeated.contains(source) ? firstCopies.count : nil
        let file: ReadableFile
        let size: Int64
        do {
            file = try ReadableFile(path: source)
            size = try file.status().size
        } catch {
            throw PackagingError.writeFailed(path: destination, reason: "cannot read \(source): \(error)")
        }
        var header: ZipEntryHeader? = ZipEntryHeader(
            name: Array(path.utf8), kind: .file(size: size), mode: 0o100000 | permissions, mtime: mtime)
        var crc: UInt32 = 0
        var hasher = recordFiles ? SHA256() : nil
        var copied: Int64 = 0
        repeat {
            var chunk: PipelineChunk<ZipChunk>? = try pipeline.take(
                tag: ZipChunk(header: header, isLast: false, deflate: true, recordAs: header == nil ? nil : recordAs))
            header = nil
            while chunk!.room > 0, copied < size {
                let want = Int(min(Int64(chunk!.room), size - copied))
                let start = chunk!.count
                let count: Int
                do {
                    count = try chunk!.input.withUnsafeMutableBytes { buffer in
                        try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[start..<start + want]))
                    }
                } catch {
                    throw PackagingError.writeFailed(path: destination, reason: "cannot read \(source): \(error)")
                }
                guard count > 0 else { break }
                chunk!.input.withUnsafeBytes { buffer in
                    let bytes = UnsafeRawBufferPointer(rebasing: buffer[start..<start + count])
                    crc = UInt32(libdeflate_crc32(crc, bytes.baseAddress, count))
                    if hasher != nil { WorkProfile.shared.measure(.hashing) { hasher!.update(bufferPointer: bytes) } }
                }
                chunk!.count += count
                copied += Int64(count)
            }
            let stalled = chunk!.room > 0 && copied < size
            if copied == size || stalled {
                chunk!.tag.isLast = true
                chunk!.tag.crc = crc
            }
            try pipeline.submit(&chunk)
            if stalled { break }
        } while copied < size
        if copied != size {
            throw PackagingError.writeFailed(
                path: destination, reason: "\(source) changed size while it was being archived; rebuild and retry")
        }
        let digest = hasher?.finalize()
        if let digest {
            files.append(ArchivedFile(folder: top, entryPath: entryPath, digest: digest, size: size))
        }
        if let recordAs { firstCopies[source] = (recordAs, crc, size, digest) }
    }
}

/// One worker's libdeflate compressor and block walker, made once and reused for every chunk.
private final class EntryCompressor {
    private let compressor: DeflateCompressor
    private let blocks = DeflateBlocks()
    private let destination: String

    init(level: Int, destination: String) throws {
        compressor = try DeflateCompressor(level: level, destination: destination)
        self.destination = destination
    }

    func compress(_ chunk: inout PipelineChunk<ZipChunk>) throws {
        guard chunk.tag.deflate else {
            chunk.outputCount = 0
            return
        }
        let count = chunk.count, isLast = chunk.tag.isLast
        let blocks = self.blocks, compressor = self.compressor.pointer
        let written = chunk.input.withUnsafeBytes { input in
            chunk.output.withUnsafeMutableBytes { output -> Int? in
                // Keep room for the stored block `makeContinuable` appends.
                let length = libdeflate_deflate_compress(
                    compressor, input.baseAddress, count, output.baseAddress, output.count - 8)
                guard length > 0 else { return nil }
                return isLast ? length : blocks.makeContinuable(output, count: length)
            }
        }
        guard let written else {
            throw PackagingError.writeFailed(
                path: destination, reason: "libdeflate produced no joinable output for a \(count)-byte chunk")
        }
        chunk.outputCount = written
    }
}

/// Writes the zip container around the compressed chunks, in order, on the pipeline's writer
/// thread, and keeps the central directory until the end.
private final class ZipContainer: ChunkWriter {
    private let sink: HashingFileSink
    private let destination: String
    private var offset: Int64 = 0
    private var central: [UInt8] = []
    private var entries = 0
    /// The entry being written: its header, where its local header starts, compressed bytes so
    /// far, and the number its data is recorded under for later copies.
    private var current: (header: ZipEntryHeader, offset: Int64, compressed: Int64, zip64: Bool, record: Int?)?
    /// Where recorded entries' compressed data lies in the archive: offset and length.
    private var recorded: [Int: (start: Int64, length: Int64)] = [:]
    /// Reading recorded data back, allocated at the first copy.
    private var copyBuffer: UnsafeMutableRawBufferPointer?

    deinit { copyBuffer?.deallocate() }

    init(sink: HashingFileSink, destination: String) {
        self.sink = sink
        self.destination = destination
    }

    func write(_ chunk: PipelineChunk<ZipChunk>) throws {
        if let header = chunk.tag.header { try begin(header, crc: chunk.tag.crc, record: chunk.tag.recordAs) }
        guard current != nil else {
            throw PackagingError.writeFailed(path: destination, reason: "zip data without an entry")
        }
        try chunk.output.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[..<chunk.outputCount])) }
        current!.compressed += Int64(chunk.outputCount)
        if let original = chunk.tag.repeatOf { try repeatData(of: original) }
        if chunk.tag.isLast { try end(crc: chunk.tag.crc) }
    }

    /// Writes the compressed data recorded as `id` again, read back from the archive itself (in
    /// the page cache: it was just written), so memory stays one buffer whatever the file's size.
    private func repeatData(of id: Int) throws {
        guard let (start, length) = recorded[id] else {
            throw PackagingError.writeFailed(path: destination, reason: "a repeated zip entry has no data to repeat")
        }
        let buffer = copyBuffer ?? .allocate(byteCount: LibArchiveWriter.chunkSize, alignment: 16)
        copyBuffer = buffer
        var done: Int64 = 0
        while done < length {
            let want = Int(min(Int64(buffer.count), length - done))
            let count = pread(sink.descriptor, buffer.baseAddress, want, off_t(start + done))
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if StorageFault.isFault(code) { throw PackagingError.writeRefused(path: destination, code: code) }
                throw PackagingError.writeFailed(
                    path: destination, reason: "cannot read back its own data: \(FileSystem.describe(errno: code))")
            }
            guard count > 0 else {
                throw PackagingError.writeFailed(
                    path: destination, reason: "its own data ended early when read back (something truncated it)")
            }
            try emit(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            done += Int64(count)
        }
        current!.compressed += length
    }

    func finish() throws {
        let start = offset
        try emit(central)
        let size = offset - start
        if size > 0xFFFF_FFFF || start > 0xFFFF_FFFF || entries > 0xFFFF {
            var record = ZipBytes()
            record.u32(0x0606_4b50)
            record.u64(44)
            record.u16(45)
            record.u16(45)
            record.u32(0)
            record.u32(0)
            record.u64(UInt64(entries))
            record.u64(UInt64(entries))
            record.u64(UInt64(size))
            record.u64(UInt64(start))
            record.u32(0x0706_4b50)
            record.u32(0)
            record.u64(UInt64(offset))
            record.u32(1)
            try emit(record.bytes)
        }
        var end = ZipBytes()
        end.u32(0x0605_4b50)
        end.u16(0)
        end.u16(0)
        end.u16(UInt16(min(entries, 0xFFFF)))
        end.u16(UInt16(min(entries, 0xFFFF)))
        end.u32(UInt32(min(size, 0xFFFF_FFFF)))
        end.u32(UInt32(min(start, 0xFFFF_FFFF)))
        end.u16(0)
        try emit(end.bytes)
    }

    private func begin(_ header: ZipEntryHeader, crc: UInt32, record: Int?) throws {
        var zip64 = false
        var local = ZipBytes()
        local.u32(0x0403_4b50)
        switch header.kind {
        case .file(let size):
            // libarchive's rule: zip64 for a deflated file over 3.75 GiB, as it might not shrink.
            zip64 = size > 0xF000_0000
            local.u16(zip64 ? 45 : 20)
            local.u16(Self.flags(header) | 0x0008)
            local.u16(8)
            local.u32(ZipArchiveWriter.dosTime(header.mtime))
            local.u32(0)
            local.u32(zip64 ? 0xFFFF_FFFF : 0)
            local.u32(zip64 ? 0xFFFF_FFFF : UInt32(size))
        case .directory, .symlink:
            let data = Self.storedData(header)
            local.u16(20)
            local.u16(Self.flags(header))
            local.u16(0)
            local.u32(ZipArchiveWriter.dosTime(header.mtime))
            local.u32(crc)
            local.u32(UInt32(data.count))
            local.u32(UInt32(data.count))
        }
        local.u16(UInt16(header.name.count))
        local.u16(UInt16(24 + (zip64 ? 20 : 0)))
        local.append(header.name)
        Self.commonExtra(header, into: &local)
        if zip64, case .file(let size) = header.kind {
            local.u16(0x0001)
            local.u16(16)
            local.u64(UInt64(size))
            local.u64(0)
        }
        local.append(Self.storedData(header))
        current = (header, offset, Int64(Self.storedData(header).count), zip64, record)
        try emit(local.bytes)
    }

    private func end(crc: UInt32) throws {
        guard let (header, start, compressed, zip64, recordedAs) = current else { return }
        current = nil
        // A file's data begins right after its local header and ends here, before its descriptor.
        if let recordedAs { recorded[recordedAs] = (offset - compressed, compressed) }
        var uncompressed = compressed
        var method: UInt16 = 0
        var flags = Self.flags(header)
        var version: UInt16 = 20
        if case .file(let size) = header.kind {
            uncompressed = size
            method = 8
            flags |= 0x0008
            var descriptor = ZipBytes()
            descriptor.u32(0x0807_4b50)
            descriptor.u32(crc)
            if zip64 {
                version = 45
                descriptor.u64(UInt64(compressed))
                descriptor.u64(UInt64(size))
            } else {
                descriptor.u32(UInt32(truncatingIfNeeded: compressed))
                descriptor.u32(UInt32(truncatingIfNeeded: size))
            }
            try emit(descriptor.bytes)
        }
        var extra = ZipBytes()
        Self.commonExtra(header, into: &extra)
        var needed = version
        if compressed > 0xFFFF_FFFF || uncompressed > 0xFFFF_FFFF || start > 0xFFFF_FFFF {
            var fields = ZipBytes()
            if uncompressed >= 0xFFFF_FFFF { fields.u64(UInt64(uncompressed)) }
            if compressed >= 0xFFFF_FFFF { fields.u64(UInt64(compressed)) }
            if start >= 0xFFFF_FFFF { fields.u64(UInt64(start)) }
            extra.u16(0x0001)
            extra.u16(UInt16(fields.bytes.count))
            extra.append(fields.bytes)
            needed = 45
        }
        var record = ZipBytes()
        record.u32(0x0201_4b50)
        record.u16(3 << 8 | version)
        record.u16(needed)
        record.u16(flags)
        record.u16(method)
        record.u32(ZipArchiveWriter.dosTime(header.mtime))
        record.u32(crc)
        record.u32(UInt32(min(compressed, 0xFFFF_FFFF)))
        record.u32(UInt32(min(uncompressed, 0xFFFF_FFFF)))
        record.u16(UInt16(header.name.count))
        record.u16(UInt16(extra.bytes.count))
        record.u16(0)
        record.u16(0)
        record.u16(0)
        record.u32(header.mode << 16)
        record.u32(UInt32(min(start, 0xFFFF_FFFF)))
        record.append(header.name)
        record.append(extra.bytes)
        central.append(contentsOf: record.bytes)
        entries += 1
    }

    private func emit(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try emit($0) }
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws {
        guard bytes.count > 0 else { return }
        guard sink.write(bytes) else {
            throw sink.writeError(path: destination)
        }
        offset += Int64(bytes.count)
    }

    private static func storedData(_ header: ZipEntryHeader) -> [UInt8] {
        if case .symlink(let target) = header.kind { return target }
        return []
    }

    /// Bit 11: the name is UTF-8 (set, as libarchive does in a UTF-8 locale, only when it is not ASCII).
    private static func flags(_ header: ZipEntryHeader) -> UInt16 {
        header.name.allSatisfy { $0 < 0x80 } ? 0 : 0x0800
    }

    /// `UT` with the modification time, then `ux` with uid and gid 0 (4 bytes each): the same in
    /// the local header and the central directory, 24 bytes.
    private static func commonExtra(_ header: ZipEntryHeader, into bytes: inout ZipBytes) {
        bytes.u16(0x5455)
        bytes.u16(5)
        bytes.append([1])
        bytes.u32(UInt32(truncatingIfNeeded: header.mtime))
        bytes.u16(0x7875)
        bytes.u16(11)
        bytes.append([1, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0])
    }
}

/// Little-endian fields of zip records.
private struct ZipBytes {
    var bytes: [UInt8] = []
    mutating func u16(_ value: UInt16) { bytes.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)]) }
    mutating func u32(_ value: UInt32) {
        u16(UInt16(value & 0xFFFF))
        u16(UInt16(value >> 16))
    }
    mutating func u64(_ value: UInt64) {
        u32(UInt32(value & 0xFFFF_FFFF))
        u32(UInt32(value >> 32))
    }
    mutating func append(_ more: [UInt8]) { bytes.append(contentsOf: more) }
}

/// A chunk's place in its entry.
package struct ZipChunk: Sendable {
    /// On an entry's first chunk only.
    package var header: ZipEntryHeader?
    package var isLast: Bool
    /// The whole entry's CRC-32, on its last chunk.
    package var crc: UInt32 = 0
    package var deflate: Bool
    /// On the first chunk of a file the archive holds again later (a link `copy` makes): the writer
    /// remembers where its compressed data lies under this number.
    package var recordAs: Int? = nil
    /// On the one chunk of a later copy of such a file: it carries no bytes, and the writer
    /// repeats the compressed data recorded under this number.
    package var repeatOf: Int? = nil
}

/// What an entry's header needs, known before its data is read.
package struct ZipEntryHeader: Sendable {
    package enum Kind: Sendable {
        case directory
        /// Deflated, CRC and sizes in the data descriptor.
        case file(size: Int64)
        /// Stored, the link's target as data, CRC and size in the local header.
        case symlink(target: [UInt8])
    }
    package var name: [UInt8]
    package var kind: Kind
    /// Permission bits with the file type (S_IFREG, S_IFDIR, S_IFLNK).
    package var mode: UInt32
    package var mtime: Int
}
