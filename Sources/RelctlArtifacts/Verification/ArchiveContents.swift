import CArchive
import Foundation
import RelctlBasics

/// The files of an archive held in memory (a chart dependency's `.tgz`), read with libarchive
/// within limits, in archive order. Folders are skipped; a link or any other special member is
/// refused, as is a path that is absolute or climbs with `..`.
package enum ArchiveContents {
    package struct File: Sendable, Equatable {
        package var path: String
        package var data: [UInt8]

        package init(path: String, data: [UInt8]) {
            self.path = path
            self.data = data
        }
    }

    package enum Problem: Error, Sendable, Equatable {
        case unreadable(String)
        case unsafePath(String)
        case special(String)
        case tooLarge(String)
    }

    /// - Parameters:
    ///   - fileLimit: the most bytes one file may hold once decompressed.
    ///   - totalLimit: the most bytes all files may hold together once decompressed.
    package static func files(of data: Data, fileLimit: Int, totalLimit: Int) throws(Problem) -> [File] {
        guard let archive = archive_read_new() else { throw .unreadable("libarchive could not allocate a reader") }
        defer { archive_read_free(archive) }
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        func reason() -> String { archive_error_string(archive).map { String(cString: $0) } ?? "unknown error" }
        var files: [File] = []
        var total = 0
        var failure: Problem?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard archive_read_open_memory(archive, raw.baseAddress, raw.count) == ARCHIVE_OK else {
                failure = .unreadable(reason())
                return
            }
            let chunk = 1 << 16
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
            defer { buffer.deallocate() }
            var entry: OpaquePointer?
            while true {
                let status = archive_read_next_header(archive, &entry)
                if status == ARCHIVE_EOF { break }
                guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                    failure = .unreadable(reason())
                    return
                }
                let path =
                    archive_entry_pathname_utf8(entry).map { String(cString: $0) }
                    ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
                let type = UInt32(archive_entry_filetype(entry))
                if type == RELCTL_AE_IFDIR { continue }
                let parts = path.replacingOccurrences(of: "\\", with: "/").split(separator: "/")
                guard !path.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
                    failure = .unsafePath(path)
                    return
                }
                guard type == RELCTL_AE_IFREG, archive_entry_hardlink(entry) == nil else {
                    failure = .special(path)
                    return
                }
                var bytes: [UInt8] = []
                while true {
                    let count = archive_read_data(archive, buffer.baseAddress, chunk)
                    if count == 0 { break }
                    guard count > 0 else {
                        failure = .unreadable("\(path): \(reason())")
                        return
                    }
                    bytes += UnsafeRawBufferPointer(rebasing: buffer[0..<count])
                    total += count
                    guard bytes.count <= fileLimit else {
                        failure = .tooLarge("\(path) holds more than \(fileLimit >> 20) MiB")
                        return
                    }
                    guard total <= totalLimit else {
                        failure = .tooLarge("it holds more than \(totalLimit >> 20) MiB")
                        return
                    }
                }
                files.append(File(path: parts.joined(separator: "/"), data: bytes))
            }
        }
        if let failure { throw failure }
        return files
    }
}
