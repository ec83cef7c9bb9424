import Foundation
import RelctlBasics

/// One entry of a Linux package's file system tree, as installed (`/usr/bin/velo-sql`). The same
/// list feeds the deb's data.tar and the rpm's header and cpio payload, so both packages hold the
/// same files with the same modes.
package struct PackagedFile: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case directory
        /// Text relctl writes (the copyright, the changelog, a gzipped manual page).
        case file(Data)
        /// A file of the build or the project, at this path: read while the package is written,
        /// never whole into memory (a binary may be hundreds of MiB).
        case source(String)
    }

    /// Absolute installed path without a trailing slash (`/usr/share/doc/velostream`).
    package var path: String
    package var kind: Kind
    /// Permission bits only (0755, 0644); the file type comes from `kind`.
    package var mode: UInt32
    /// Documentation (rpm `%doc`), shown as such by `rpm -qd`.
    package var isDocumentation = false
    /// The license text (rpm `%license`).
    package var isLicense = false

    package init(path: String, kind: Kind, mode: UInt32, isDocumentation: Bool = false, isLicense: Bool = false) {
        self.path = path
        self.kind = kind
        self.mode = mode
        self.isDocumentation = isDocumentation
        self.isLicense = isLicense
    }

    package var isDirectory: Bool { kind == .directory }

    /// `st_mode` with the file type bits.
    package var fullMode: UInt32 { (isDirectory ? 0o040000 : 0o100000) | mode }

    /// The first `limit` bytes (all of a shorter file; nothing for a folder): enough to tell an ELF
    /// file's kind, or a whole file read with a bound.
    package func head(_ limit: Int) throws -> Data {
        switch kind {
        case .directory: return Data()
        case .file(let data): return data.prefix(limit)
        case .source(let path):
            let file = try PackagedFile.open(path)
            var head = Data()
            let block = UnsafeMutableRawBufferPointer.allocate(byteCount: min(limit, 64 << 10), alignment: 16)
            defer { block.deallocate() }
            while head.count < limit {
                let read: Int
                do {
                    read = try file.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: block[..<min(block.count, limit - head.count)]))
                } catch { throw LinuxPackageError.unreadable(path: path, reason: error.description) }
                if read == 0 { break }
                head.append(contentsOf: UnsafeRawBufferPointer(rebasing: block[..<read]))
            }
            return head
        }
    }

    /// Opens a source file for reading: a regular file, else the package cannot be made.
    package static func open(_ path: String) throws -> ReadableFile {
        do {
            let file = try ReadableFile(path: path)
            guard try file.status().isRegularFile else {
                throw LinuxPackageError.unreadable(path: path, reason: "not a regular file")
            }
            return file
        } catch let failure as SystemCallFailure {
            throw LinuxPackageError.unreadable(path: path, reason: failure.description)
        }
    }
}
