import CArchive
import Foundation
import RelctlBasics

/// The control file of a binary .deb: the `control.tar.*` member of the ar archive, then its
/// `./control`, both read through libarchive (any compression dpkg-deb writes). Bounded: a
/// control file is a few KiB, and more than 1 MiB is refused.
package enum DebControlReader {
    package static let limit = 1 << 20

    package static func control(of url: URL) throws -> String {
        guard let member = try read(fromFile: url, entry: { $0.hasPrefix("control.tar") }) else {
            throw RepositoryError.badInput(path: url.path, reason: "not a .deb: it has no control.tar member")
        }
        guard
            let control = try read(
                fromMemory: member, source: url.path, entry: { $0 == "./control" || $0 == "control" })
        else {
            throw RepositoryError.badInput(path: url.path, reason: "the .deb's control.tar holds no ./control file")
        }
        guard let text = String(data: control, encoding: .utf8) else {
            throw RepositoryError.badInput(path: url.path, reason: "the .deb's control file is not UTF-8")
        }
        return text
    }

    private static func read(fromFile url: URL, entry match: (String) -> Bool) throws -> Data? {
        guard let archive = archive_read_new() else {
            throw RepositoryError.badInput(path: url.path, reason: "libarchive failed to start")
        }
        defer { archive_read_free(archive) }
        archive_read_support_format_ar(archive)
        archive_read_support_filter_none(archive)
        guard archive_read_open_filename(archive, url.path, 65536) == ARCHIVE_OK else {
            throw RepositoryError.badInput(path: url.path, reason: "cannot open as a .deb: \(message(archive))")
        }
        return try find(archive, source: url.path, match)
    }

    private static func read(fromMemory data: Data, source: String, entry match: (String) -> Bool) throws -> Data? {
        guard let archive = archive_read_new() else {
            throw RepositoryError.badInput(path: source, reason: "libarchive failed to start")
        }
        defer { archive_read_free(archive) }
        archive_read_support_format_tar(archive)
        archive_read_support_filter_all(archive)
        return try data.withUnsafeBytes { buffer in
            guard archive_read_open_memory(archive, buffer.baseAddress, buffer.count) == ARCHIVE_OK else {
                throw RepositoryError.badInput(
                    path: source, reason: "the .deb's control.tar cannot be read: \(message(archive))")
            }
            return try find(archive, source: source, match)
        }
    }

    private static func find(_ archive: OpaquePointer, source: String, _ match: (String) -> Bool) throws -> Data? {
        var entry: OpaquePointer?
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { return nil }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
                throw RepositoryError.badInput(path: source, reason: "malformed .deb: \(message(archive))")
            }
            let name = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            guard match(name) else { continue }
            let size = Int(archive_entry_size(entry))
            guard size >= 0, size <= limit else {
                throw RepositoryError.badInput(path: source, reason: "`\(name)` is larger than \(limit) bytes")
            }
            var data = Data(count: size)
            let read = data.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, size) }
            guard read == size else {
                throw RepositoryError.badInput(path: source, reason: "`\(name)` ends early: \(message(archive))")
            }
            return data
        }
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
    }
}
