import Crypto
import Foundation
import RelctlBasics

/// Builds an OCI image layout (`oci-layout`, `index.json`, `blobs/sha256/…`) in a hidden staging
/// folder next to its destination, and moves it into place only when complete: a failed build
/// leaves the previous layout (or nothing), never half of one.
package final class OCILayoutWriter: Sendable {
    package let destination: URL
    package let staging: URL
    package var blobs: URL { staging.appendingPathComponent("blobs/sha256") }

    package init(destination: URL) throws {
        self.destination = destination
        staging = AtomicFile.temporaryURL(for: destination)
        do {
            try FileSystem.createDirectory(destination.deletingLastPathComponent())
            try CleanupRegistry.shared.makeDirectory(staging)
        } catch {
            if let code = StorageFault.code(of: error) {
                throw ImageError.writeRefused(path: destination.path, code: code)
            }
            throw ImageError.writeFailed(
                path: destination.path, reason: (error as? RelctlError)?.message ?? "\(error)")
        }
        do {
            try FileSystem.createDirectory(staging.appendingPathComponent("blobs/sha256"))
        } catch {
            CleanupRegistry.shared.unregister(staging)
            try? FileSystem.remove(staging)
            if let code = StorageFault.code(of: error) {
                throw ImageError.writeRefused(path: destination.path, code: code)
            }
            let cause = FileSystemError.cause(of: error)
            throw ImageError.writeFailed(
                path: destination.path, reason: (cause as NSError).localizedFailureReason ?? "\(cause)")
        }
    }

    /// Stores a JSON document as a blob and describes it.
    package func add(
        json value: some Encodable, mediaType: String, platform: ImagePlatform? = nil,
        annotations: [String: String]? = nil
    ) throws -> OCIDescriptor {
        let data = try OCIJSON.encode(value)
        let hex = FileHasher.hex(SHA256.hash(data: data))
        let url = blobs.appendingPathComponent(hex)
        if !FileSystem.exists(url) {
            do { try AtomicFile.write(data, to: url) } catch let error as RelctlError {
                if let code = StorageFault.code(of: error) { throw ImageError.writeRefused(path: url.path, code: code) }
                throw ImageError.writeFailed(path: url.path, reason: "cannot create the blob: \(error.message)")
            }
        }
        return OCIDescriptor(
            mediaType: mediaType, digest: "sha256:" + hex, size: Int64(data.count), platform: platform,
            annotations: annotations)
    }

    /// Brings a blob from the local cache in (a hard link where the file system allows).
    package func add(cached source: URL, digest: String) throws {
        let url = blobs.appendingPathComponent(String(digest.dropFirst(7)))
        if FileSystem.exists(url) { return }
        if (try? FileSystem.hardLink(atPath: source.path, to: url.path)) != nil { return }
        do { try FileSystem.copy(source, to: url) } catch {
            throw ImageError.writeFailed(path: url.path, reason: "cannot copy the cached base layer \(source.path)")
        }
    }

    /// Writes `oci-layout` and `index.json` (one entry per tag, so `skopeo copy oci:DIR:TAG` and
    /// `umoci` find the image by tag), then moves the layout into place.
    package func finish(index: OCIDescriptor, tags: [String]) throws {
        try AtomicFile.write(
            Data(#"{"imageLayoutVersion":"1.0.0"}"#.utf8), to: staging.appendingPathComponent("oci-layout"))
        let entries = (tags.isEmpty ? [nil] : tags.map { Optional($0) }).map { tag in
            var descriptor = index
            descriptor.annotations = tag.map { ["org.opencontainers.image.ref.name": $0] }
            return descriptor
        }
        try AtomicFile.write(
            try OCIJSON.encode(OCIIndex(manifests: entries, annotations: nil)),
            to: staging.appendingPathComponent("index.json"))
        do { try AtomicFile.replaceFolder(staging, at: destination) } catch {
            if StorageFault.isFault(error.code) {
                throw ImageError.writeRefused(path: destination.path, code: error.code)
            }
            throw ImageError.writeFailed(
                path: destination.path, reason: "cannot move the finished layout into place: \(error)")
        }
        CleanupRegistry.shared.unregister(staging)
    }

    /// Removes the staging folder after a failure.
    package func discard() {
        try? FileSystem.remove(staging)
        CleanupRegistry.shared.unregister(staging)
    }
}
