import CDeflate
import Crypto
import Foundation
import RelctlBasics

/// Where a package's bytes go, in 1 MiB write(2)s: the package itself, hashed on the way for the
/// release's checksums, or one of its temporaries, with the CRC-32 its gzip trailer needs. A
/// source file is read into the same buffer it is written from, so a binary of any size passes
/// through 1 MiB of memory. Every failure names the package being written, whichever file it was in.
package final class PackageFileWriter {
    private let descriptor: Int32
    private let package: URL
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
    private var buffered = 0
    /// Bytes taken so far (written or waiting in the buffer).
    package private(set) var count = 0
    package private(set) var crc: UInt32 = 0
    private let keepsCRC: Bool
    private var sha256: SHA256?
    private var sha512: SHA512?

    /// - Parameters:
    ///   - package: the package this writes, or a temporary of, named in errors.
    ///   - crc: keep the CRC-32 of the bytes (`crc`).
    ///   - digests: keep their SHA-256 and SHA-512 (`digests()`).
    package init(descriptor: Int32, package: URL, crc: Bool = false, digests: Bool = false) {
        self.descriptor = descriptor
        self.package = package
        keepsCRC = crc
        if digests {
            sha256 = SHA256()
            sha512 = SHA512()
        }
    }

    deinit { buffer.deallocate() }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        if buffered + bytes.count > buffer.count { try flush() }
        count += bytes.count
        if bytes.count >= buffer.count { return try emit(bytes) }
        UnsafeMutableRawBufferPointer(rebasing: buffer[buffered...]).copyMemory(from: bytes)
        buffered += bytes.count
    }

    package func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try write($0) } }

    package func write(_ data: Data) throws { try data.withUnsafeBytes { try write($0) } }

    package func zeros(_ count: Int) throws { try write([UInt8](repeating: 0, count: count)) }

    /// Writes what the buffer holds.
    package func flush() throws {
        try emit(UnsafeRawBufferPointer(rebasing: buffer[..<buffered]))
        buffered = 0
    }

    /// The SHA-256 and SHA-512 (lowercase hex) of everything written; after `flush`.
    package func digests() -> (sha256: String, sha512: String) {
        (sha256.map { FileHasher.hex($0.finalize()) } ?? "", sha512.map { FileHasher.hex($0.finalize()) } ?? "")
    }

    /// The contents of `file` (a folder has none), with `header(size)` before them; returns the
    /// size. A source file is sized by fstat(2) when it is opened, for the header, and must give
    /// exactly that many bytes: one that grows or shrinks meanwhile (a build still writing it) is
    /// refused, never packaged half old, half new.
    package func append<Hash: HashFunction>(
        _ file: PackagedFile, hashing hasher: inout Hash, header: (Int) throws -> [UInt8]
    ) throws -> Int {
        switch file.kind {
        case .directory:
            try write(header(0))
            return 0
        case .file(let data):
            try write(header(data.count))
            hasher.update(data: data)
            try write(data)
            return data.count
        case .source(let path):
            let source = try PackagedFile.open(path)
            let size: Int
            do { size = Int(try source.status().size) } catch {
                throw LinuxPackageError.unreadable(path: path, reason: error.description)
            }
            try write(header(size))
            try stream(
                source, size: size, observe: { hasher.update(bufferPointer: $0) },
                failure: { LinuxPackageError.unreadable(path: path, reason: $0) })
            return size
        }
    }

    /// Copies `size` bytes of one of the package's temporaries in.
    package func append(temporary: PackageTemporary, size: Int) throws {
        try stream(
            try temporary.reader(), size: size, observe: { _ in },
            failure: {
                PackagingError.writeFailed(
                    path: self.package.path, reason: "cannot read back \(temporary.url.path): \($0)")
            })
    }

    /// Reads exactly `size` bytes of `source` into the buffer and on, then checks it has no more.
    private func stream(
        _ source: ReadableFile, size: Int, observe: (UnsafeRawBufferPointer) -> Void, failure: (String) -> any Error
    ) throws {
        var remaining = size
        while remaining > 0 {
            if buffered == buffer.count { try flush() }
            let room = UnsafeMutableRawBufferPointer(
                rebasing: buffer[buffered..<min(buffer.count, buffered + remaining)])
            let read: Int
            do { read = try source.read(into: room) } catch { throw failure(error.description) }
            guard read > 0 else { throw failure(Self.changed(size, read: size - remaining)) }
            observe(UnsafeRawBufferPointer(rebasing: room[..<read]))
            buffered += read
            count += read
            remaining -= read
        }
        // One more byte, read into the buffer without taking it: there must be none.
        if buffered == buffer.count { try flush() }
        let more: Int
        do {
            more = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[buffered..<buffered + 1]))
        } catch {
            throw failure(error.description)
        }
        if more > 0 { throw failure(Self.changed(size, read: nil)) }
    }

    private static func changed(_ size: Int, read: Int?) -> String {
        let what = read.map { "ended after \($0) of its \(size) bytes" } ?? "grew past its \(size) bytes"
        return "it changed while it was packaged (it \(what)); package it again once nothing writes it"
    }

    private func emit(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        if keepsCRC { crc = UInt32(libdeflate_crc32(crc, bytes.baseAddress, bytes.count)) }
        sha256?.update(bufferPointer: bytes)
        sha512?.update(bufferPointer: bytes)
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw AtomicFile.writeError(errno, package)
            }
            offset += written
        }
    }

    /// `hasher` over one of the package's temporaries, read in 1 MiB blocks.
    package static func digest<Hash: HashFunction>(
        of temporary: PackageTemporary, into hasher: inout Hash, package: URL
    ) throws {
        let source = try temporary.reader()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let read: Int
            do { read = try source.read(into: buffer) } catch {
                throw PackagingError.writeFailed(
                    path: package.path, reason: "cannot read back \(temporary.url.path): \(error.description)")
            }
            if read == 0 { return }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[..<read]))
        }
    }
}

/// A temporary file beside a package being written (`.NAME.data.tar.relctl-tmp-…`), in the output
/// folder so a 200 MiB member never passes through $TMPDIR or memory. Removed by `remove()` (the
/// writers call it in a `defer`, so on every failure too) and by an interrupt's cleanup.
package final class PackageTemporary {
    package let url: URL
    package let descriptor: Int32
    private var removed = false

    package init(beside package: URL, _ what: String) throws {
        url = package.deletingLastPathComponent().appendingPathComponent(
            Temporaries.name(".\(package.lastPathComponent).\(what)"))
        // Read and write: the gzip step maps it.
        descriptor = CleanupRegistry.shared.create(url, mode: 0o600, readable: true)
        guard descriptor >= 0 else { throw AtomicFile.writeError(errno, package) }
    }

    deinit { remove() }

    /// Opened again for reading from the start.
    package func reader() throws -> ReadableFile {
        do { return try ReadableFile(path: url.path) } catch {
            throw PackagingError.writeFailed(
                path: url.path, reason: "cannot read back the temporary: \(error.description)")
        }
    }

    package func remove() {
        guard !removed else { return }
        removed = true
        close(descriptor)
        try? FileSystem.remove(url)
        CleanupRegistry.shared.unregister(url)
    }
}
