import CArchive
import Crypto
import Foundation
import RelctlBasics

/// Lists an archive's members with libarchive, whatever its format (tar with any compression,
/// zip, ar as in `.deb`, cpio as in `.rpm`), hashing each regular file's content as it streams.
package enum ArchiveReader {
    package static let blockSize = 1 << 16
    /// The most members one archive may have to be compared (a release archive of a large SDK
    /// holds some thousands): each member is kept for the comparison, so an archive of millions
    /// of empty entries, cheap to publish, would otherwise grow relctl's memory and time without end.
    package static let memberLimit = 100_000
    /// The most content (uncompressed) read from one archive: a compression bomb of a few MB
    /// would otherwise keep relctl hashing for hours.
    package static let byteLimit: Int64 = 16 << 30

    /// The members in archive order; `shown` names the file in errors (exit 1: the file is not a
    /// readable archive, which is itself a difference worth reporting).
    package static func members(of url: URL, shown: String) throws -> [ArchiveMember] {
        guard let archive = archive_read_new() else {
            throw ArchiveReadError.unreadableArchive(path: shown, reason: "libarchive could not allocate a reader")
        }
        defer { archive_read_free(archive) }
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        func failure(_ what: String) -> ArchiveReadError {
            let reason = archive_error_string(archive).map { String(cString: $0) } ?? "unknown error"
            return .unreadableArchive(path: shown, reason: "\(what): \(reason)")
        }
        guard archive_read_open_filename(archive, url.path, blockSize) == ARCHIVE_OK else {
            throw failure("cannot open")
        }
        var members: [ArchiveMember] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 16)
        defer { buffer.deallocate() }
        var entry: OpaquePointer?
        var content: Int64 = 0
        while true {
            let status = archive_read_next_header(archive, &entry)
            if status == ARCHIVE_EOF { break }
            guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else { throw failure("bad entry") }
            guard members.count < memberLimit else {
                throw ArchiveReadError.archiveTooLarge(path: shown, limit: "\(memberLimit) members")
            }
            let path =
                archive_entry_pathname_utf8(entry).map { String(cString: $0) }
                ?? archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
            let type = UInt32(archive_entry_filetype(entry))
            let hardlink = archive_entry_hardlink(entry).map { String(cString: $0) }
            let symlink = archive_entry_symlink(entry).map { String(cString: $0) }
            let kind: ArchiveMember.Kind =
                hardlink != nil
                ? .hardlink
                : type == RELCTL_AE_IFREG
                    ? .file : type == RELCTL_AE_IFDIR ? .directory : type == RELCTL_AE_IFLNK ? .symlink : .other
            var sha256: String?
            var size = Int64(archive_entry_size(entry))
            if kind == .file {
                var hasher = SHA256()
                var total: Int64 = 0
                while true {
                    let count = archive_read_data(archive, buffer.baseAddress, blockSize)
                    if count == 0 { break }
                    guard count > 0 else { throw failure("cannot read \(path)") }
                    hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                    total += Int64(count)
                    content += Int64(count)
                    guard content <= byteLimit else {
                        throw ArchiveReadError.archiveTooLarge(path: shown, limit: "\(byteLimit >> 30) GiB of content")
                    }
                }
                sha256 = FileHasher.hex(hasher.finalize())
                size = total
            }
            members.append(
                ArchiveMember(
                    path: path, kind: kind, size: size, sha256: sha256,
                    mode: String(format: "%04o", Int(archive_entry_perm(entry))),
                    mtime: Int(archive_entry_mtime(entry)), linkTarget: hardlink ?? symlink,
                    owner: "\(archive_entry_uid(entry)):\(archive_entry_gid(entry))"))
        }
        return members
    }

    /// True when libarchive can list `url` as an archive (not a raw compressed file or text).
    package static func isArchive(_ url: URL) -> Bool {
        guard let archive = archive_read_new() else { return false }
        defer { archive_read_free(archive) }
        archive_read_support_filter_all(archive)
        archive_read_support_format_all(archive)
        guard archive_read_open_filename(archive, url.path, blockSize) == ARCHIVE_OK else { return false }
        var entry: OpaquePointer?
        let status = archive_read_next_header(archive, &entry)
        return status == ARCHIVE_OK || status == ARCHIVE_WARN
    }
}
