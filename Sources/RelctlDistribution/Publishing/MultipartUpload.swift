import Foundation
import RelctlArtifacts
import RelctlBasics

/// A `multipart/form-data` body (RFC 7578) holding one file field, written to a scratch file so
/// the transport streams it from disk like any other file body: a 1 GiB asset never sits in
/// memory. Removed by `remove()`, or by the interrupt cleanup if relctl is stopped meanwhile.
package struct MultipartUpload {
    package let url: URL
    package let size: Int64
    package let boundary: String

    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// `field` carries `asset`'s bytes under its name, with its media type.
    package init(field: String, asset: Artifact) throws {
        // Random, so no file can contain it by accident (RFC 2046 5.1.1: at most 70 characters).
        boundary = "relctl-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let quotedName = asset.name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: "\"", with: "\\\"")
        let head = Data(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"\(quotedName)\"\r\n"
                + "Content-Type: \(asset.contentType)\r\n\r\n").utf8)
        let tail = Data("\r\n--\(boundary)--\r\n".utf8)
        url = Temporaries.scratchURL("upload")
        let descriptor = CleanupRegistry.shared.create(url, mode: 0o600)
        guard descriptor >= 0 else { throw FileSystemError(path: url.path, action: "cannot create", errno: errno) }
        var written: Int64 = 0
        do {
            defer { close(descriptor) }
            try AtomicFile.writeAll(head, to: descriptor, reportedAs: url)
            let input = try FileHandle(forReadingFrom: asset.fileURL)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: FileHasher.bufferSize), !chunk.isEmpty {
                try AtomicFile.writeAll(chunk, to: descriptor, reportedAs: url)
                written += Int64(chunk.count)
            }
            try AtomicFile.writeAll(tail, to: descriptor, reportedAs: url)
        } catch {
            Temporaries.removeScratchFile(url)
            throw error
        }
        size = Int64(head.count) + written + Int64(tail.count)
    }

    package func remove() { Temporaries.removeScratchFile(url) }
}
