import Foundation
import RelctlBasics
import Synchronization

/// Writes one layout to disk atomically: a hidden temporary file in the output folder, linked
/// into place only when complete (never replacing an existing archive).
package enum ArchiveFile {
    package struct Written: Sendable {
        package var size: Int64
        package var sha256: String
        package var sha512: String?
        package var entries: Int
        /// Regular files and their SHA-256, when asked for (`recordFiles`).
        package var files: [ArchivedFile] = []
    }

    /// - Parameter finish: runs once the archive is in place (writes its `.sha256`); if it throws
    ///   or relctl is interrupted meanwhile, the archive is removed again, so no archive is left
    ///   without its checksum.
    ///   - workers: compression threads for this archive (tar.gz and zip chunks, zstd); the bytes written
    ///     do not depend on it.
    ///   - recordFiles: keep every file's path, size and SHA-256 as written (for the SBOM).
    package static func write(
        _ layout: ArchiveLayout, format: ArchiveWriterFormat, level: Int?, mtime: Int, workers: Int = 1, to url: URL,
        alsoSHA512: Bool = false, recordFiles: Bool = false, finish: (Written) throws -> Void = { _ in }
    ) async throws -> Written {
        // A fault in another archive of the same command cancels this one before it starts.
        try Task.checkCancellation()
        let temporary = AtomicFile.temporaryURL(for: url)
        // Created and registered in one step: an interrupt at any moment leaves no temporary.
        // A zip reads back the data of a file it holds twice (ZipArchiveWriter).
        let descriptor = CleanupRegistry.shared.create(temporary, readable: format.parallelZip)
        guard descriptor >= 0 else {
            let code = errno
            if StorageFault.isFault(code) { throw PackagingError.writeRefused(path: url.path, code: code) }
            throw PackagingError.writeFailed(
                path: url.path, reason: "cannot create \(temporary.path): \(FileSystem.describe(errno: code))")
        }
        defer { CleanupRegistry.shared.unregister(temporary) }
        var descriptorOpen = true
        do {
            let time = min(max(mtime, format.earliestTime), format.latestTime)
            let destination = url.path
            let written: Written
            if format.chunkedGzip {
                let sink = HashingFileSink(descriptor: descriptor, alsoSHA512: alsoSHA512)
                let compressor = ChunkedGzipCompressor(level: format.effectiveLevel(level), workers: workers)
                let recorded = RecordedFiles()
                let entries = try await compressor.compress(into: sink, destination: destination) { tarStream in
                    let (count, files) = try writeEntries(
                        layout, format: format, level: level, workers: 1, mtime: time, into: tarStream,
                        destination: destination, recordFiles: recordFiles)
                    recorded.set(files)
                    return count
                }
                written = Written(
                    size: sink.byteCount, sha256: sink.finalizeHex(), sha512: sink.finalizeSHA512Hex(),
                    entries: entries, files: recorded.value ?? [])
            } else if format.parallelZip {
                let sink = HashingFileSink(descriptor: descriptor, alsoSHA512: alsoSHA512)
                let (entries, files) = try await ZipArchiveWriter.write(
                    layout, level: format.effectiveLevel(level), workers: workers, mtime: time, into: sink,
                    destination: destination, recordFiles: recordFiles)
                written = Written(
                    size: sink.byteCount, sha256: sink.finalizeHex(), sha512: sink.finalizeSHA512Hex(),
                    entries: entries, files: files)
            } else {
                // libarchive compresses and writes on one thread here: a cancelled task stops it at
                // its next write.
                let stop = WorkStop()
                written = try await stop.whileCancellable {
                    try await BlockingWork.run {
                        let sink = HashingFileSink(descriptor: descriptor, alsoSHA512: alsoSHA512, stop: stop)
                        do {
                            let (entries, files) = try writeEntries(
                                layout, format: format, level: level, workers: workers, mtime: time, into: sink,
                                destination: destination, recordFiles: recordFiles)
                            return Written(
                                size: sink.byteCount, sha256: sink.finalizeHex(), sha512: sink.finalizeSHA512Hex(),
                                entries: entries, files: files)
                        } catch {
                            if stop.isStopped, let failure = stop.failure { throw failure }
                            throw error
                        }
                    }
                }
            }
            descriptorOpen = false
            if Foundation.close(descriptor) != 0 {
                let code = errno
                if StorageFault.isFault(code) { throw PackagingError.writeRefused(path: url.path, code: code) }
                throw PackagingError.writeFailed(path: url.path, reason: FileSystem.describe(errno: code))
            }
            // Never over an existing archive. The archive is registered (only once in place: before,
            // the path may be someone else's) in the same step, so an interrupt cannot leave it
            // without its checksum file.
            do { try AtomicFile.placeWithoutReplacing(temporary, at: url, registered: true) } catch {
                switch error {
                case .exists: throw PackagingError.archiveExists(path: url.path)
                case .failed(let failure):
                    if StorageFault.isFault(failure.code) {
                        throw PackagingError.writeRefused(path: url.path, code: failure.code)
                    }
                    throw PackagingError.writeFailed(
                        path: url.path, reason: "cannot move the finished archive into place: \(failure)")
                }
            }
            defer { CleanupRegistry.shared.unregister(url) }
            do { try finish(written) } catch {
                FileSystem.removeFile(atPath: url.path)
                throw error
            }
            return written
        } catch {
            if descriptorOpen { Foundation.close(descriptor) }
            FileSystem.removeFile(atPath: temporary.path)
            throw error
        }
    }

    /// The archive folder entry, then every entry of the layout, through libarchive into `sink`.
    /// - Returns: the number of entries, and the files with their SHA-256 when `recordFiles`.
    private static func writeEntries(
        _ layout: ArchiveLayout, format: ArchiveWriterFormat, level: Int?, workers: Int, mtime: Int,
        into sink: any ArchiveByteSink, destination: String, recordFiles: Bool
    ) throws -> (Int, [ArchivedFile]) {
        let writer = try LibArchiveWriter(
            format: format, level: level, workers: workers, sink: sink, destination: destination,
            recordFiles: recordFiles)
        writer.reserveFiles(layout.entries.count)
        if layout.hasTopFolder {
            try writer.write(
                ArchiveEntry(path: "", content: .directory, mode: 0o755, origin: "archive folder"), top: layout.top,
                mtime: mtime)
        }
        for entry in layout.entries { try writer.write(entry, top: layout.top, mtime: mtime) }
        try writer.close()
        return (writer.entryCount, writer.files)
    }
}

/// A value handed out of a `@Sendable` closure (the files the tar producer recorded, the SBOM the
/// finishing step wrote).
package final class SendableBox<Value: Sendable>: Sendable {
    private let stored: Mutex<Value?>
    package init() { stored = Mutex(nil) }
    package func set(_ value: Value) { stored.withLock { $0 = value } }
    package var value: Value? { stored.withLock { $0 } }
}

package typealias RecordedFiles = SendableBox<[ArchivedFile]>
package typealias SBOMBox = SendableBox<Artifact>
