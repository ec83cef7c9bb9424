import CArchive
import Crypto
import Foundation
import RelctlBasics

/// An `[npm]` package in dist/ as publish sends it: its bytes, its `package/package.json`
/// (the version document the registry stores), and the digests the registry checks
/// (`shasum`, SHA-1 hex, and `integrity`, `sha512-` and base64, as `npm publish` computes them).
package struct NpmTarball: Sendable {
    /// The most bytes one package may hold: the tarball goes base64 into one JSON document.
    package static let sizeLimit = 512 << 20
    /// The most bytes of its package.json.
    package static let documentLimit = 1 << 20

    package var data: Data
    package var packageJSON: Data
    package var name: String
    package var version: String

    package var shasum: String { Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined() }
    package var integrity: String { "sha512-" + Data(SHA512.hash(data: data)).base64EncodedString() }

    /// Reads the package at `url` (relctl's own output in dist/); `shown` names it in errors.
    package static func read(_ url: URL, shown: String) throws -> NpmTarball {
        let data: Data
        switch FileSystem.contents(of: url, limit: sizeLimit) {
        case .whole(let bytes)?: data = bytes
        case .tooLarge?:
            throw NpmError.unreadablePackage(path: shown, reason: "larger than \(ByteCount.format(Int64(sizeLimit)))")
        case nil: throw NpmError.unreadablePackage(path: shown, reason: "cannot be read")
        }
        let document = try packageJSON(in: data, shown: shown)
        guard let object = try? JSONSerialization.jsonObject(with: document) as? [String: Any],
            let name = object["name"] as? String, let version = object["version"] as? String
        else {
            throw NpmError.unreadablePackage(path: shown, reason: "package/package.json has no name and version")
        }
        return NpmTarball(data: data, packageJSON: document, name: name, version: version)
    }

    /// `package/package.json` of a gzipped tarball held in memory.
    private static func packageJSON(in data: Data, shown: String) throws -> Data {
        guard let archive = archive_read_new() else {
            throw NpmError.unreadablePackage(path: shown, reason: "libarchive could not allocate a reader")
        }
        defer { archive_read_free(archive) }
        archive_read_support_filter_gzip(archive)
        archive_read_support_format_tar(archive)
        return try data.withUnsafeBytes { bytes -> Data in
            guard archive_read_open_memory(archive, bytes.baseAddress, bytes.count) == ARCHIVE_OK else {
                throw NpmError.unreadablePackage(path: shown, reason: "not a gzipped tarball")
            }
            var entry: OpaquePointer?
            while archive_read_next_header(archive, &entry) == ARCHIVE_OK, let entry {
                let path = archive_entry_pathname(entry).map { String(cString: $0) } ?? ""
                guard path == "package/package.json" else { continue }
                let size = Int(archive_entry_size(entry))
                guard size <= documentLimit else {
                    throw NpmError.unreadablePackage(path: shown, reason: "package/package.json is too large")
                }
                var document = Data(count: size)
                let read = document.withUnsafeMutableBytes { archive_read_data(archive, $0.baseAddress, size) }
                guard read == size else {
                    throw NpmError.unreadablePackage(path: shown, reason: "package/package.json cannot be read")
                }
                return document
            }
            throw NpmError.unreadablePackage(path: shown, reason: "no package/package.json")
        }
    }
}
