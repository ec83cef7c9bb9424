import CDeflate
import Crypto
import Foundation
import RelctlBasics
import RelctlModel

/// Compressed image layers kept between runs, keyed by the digest of everything the layer's bytes
/// depend on (ko's KOCACHE idea): the exact entry list with each file's SHA-256, mode and kind,
/// the one mtime and owner every entry gets, the compression level and libdeflate's version
/// (another version may compress differently), and the writer's format version. An unchanged image is then never compressed again, and `release --dry-run` followed by
/// `release --push` builds each layer once.
///
/// Where: `$RELCTL_LAYER_CACHE` (`off` disables it), else `$XDG_CACHE_HOME/relctl/layers`, else
/// `~/.cache/relctl/layers`. Size: at most `$RELCTL_LAYER_CACHE_MAX` MiB (default 1024); the
/// least recently used entries go first. Each entry is `KEY.layer` (the gzip blob) and
/// `KEY.json` (its digest, size and diff_id), both written atomically, the JSON last. What is read
/// back is hashed again: an entry whose bytes do not match its recorded digest is removed and the
/// layer rebuilt, so a damaged cache costs time, never a wrong image. `input-digests.memo` remembers
/// the inputs' digests by their stat(2) status (`DigestMemo`).
package struct LayerCache: Sendable {
    package let folder: URL
    package let maxBytes: Int64

    /// Bumped whenever the layer writer's output for the same inputs changes (tar framing, gzip
    /// member size, header fields): old entries then simply stop matching.
    package static let formatVersion = 1
    package static let defaultMaxMiB: Int64 = 1024

    /// What a cache entry records next to its blob.
    private struct Record: Codable {
        var digest: String
        var size: Int64
        var diffID: String
    }

    /// The cache the environment asks for, or nil when it is turned off.
    package static func configured(environment: [String: String], workingDirectory: URL) throws -> LayerCache? {
        var maxBytes = defaultMaxMiB << 20
        if let text = environment["RELCTL_LAYER_CACHE_MAX"], !text.isEmpty {
            guard let mib = Int64(text), mib >= 0, mib < (1 << 40) else {
                throw ImageError.badCacheSetting(
                    name: "RELCTL_LAYER_CACHE_MAX", value: text, expected: "a size in MiB (0 keeps nothing)")
            }
            maxBytes = mib << 20
        }
        let here = AbsolutePath(workingDirectory)
        if let setting = environment["RELCTL_LAYER_CACHE"], !setting.isEmpty {
            if ["off", "0", "false", "no"].contains(setting.lowercased()) { return nil }
            return LayerCache(folder: AbsolutePath(setting, relativeTo: here).url, maxBytes: maxBytes)
        }
        // As for base images: a relative XDG_CACHE_HOME is ignored (the XDG spec), a relative HOME
        // is relative to here.
        if let cache = environment["XDG_CACHE_HOME"].flatMap(AbsolutePath.init(absolute:)) {
            return LayerCache(folder: cache.appending("relctl/layers").url, maxBytes: maxBytes)
        }
        let home = environment["HOME"] ?? FileSystem.homeDirectory.path
        return LayerCache(
            folder: AbsolutePath(home, relativeTo: here).appending(".cache/relctl/layers").url, maxBytes: maxBytes)
    }

    package init(folder: URL, maxBytes: Int64) {
        self.folder = folder
        self.maxBytes = maxBytes
    }

    /// The key of a layer: SHA-256 over a canonical description of every input. Files are hashed
    /// in parallel; a file's path on disk does not matter, only its bytes, so the same binaries
    /// built in a dry run's scratch clone find the entry the real run left.
    /// With `memo`, a file whose status is unchanged since an earlier run is not read again.
    package static func key(
        _ entries: [ArchiveEntry], top: String, mtime: Int, level: Int, chunkSize: Int, memo: DigestMemo? = nil
    ) async throws -> String {
        let files = entries.compactMap { entry -> URL? in
            entry.sourcePath.flatMap { AbsolutePath(absolute: $0)?.url }
        }
        let digests =
            if let memo {
                try await memo.sha256(of: files).digests
            } else {
                try await FileHasher.digests(of: files, algorithms: [.sha256]).map { $0[.sha256] }
            }
        var next = digests.makeIterator()
        var text =
            "relctl image layer \(formatVersion)\ngzip members of \(chunkSize) bytes, libdeflate \(LIBDEFLATE_VERSION_STRING) level \(level)\n"
            + "top \(top), mtime \(mtime), owner 0:0\n"
        for entry in entries {
            let content: String
            switch entry.content {
            case .directory: content = "directory"
            case .file: content = "file " + (next.next() ?? "")
            case .generated(let data): content = "data " + FileHasher.hex(SHA256.hash(data: data))
            case .symlink(let target): content = "symlink " + target
            }
            // Paths and targets are written length-prefixed: no name can forge a line break.
            text +=
                "\(entry.path.utf8.count):\(entry.path) \(String(entry.mode, radix: 8)) \(content.utf8.count):\(content)\n"
        }
        return FileHasher.hex(SHA256.hash(data: Data(text.utf8)))
    }

    /// The stat-keyed memo of input digests kept next to the layers (`DigestMemo`), so an
    /// unchanged image finds its key without reading its binaries.
    package var inputDigests: DigestMemo { DigestMemo(file: folder.appendingPathComponent("input-digests.memo")) }

    private func blob(_ key: String) -> URL { folder.appendingPathComponent(key + ".layer") }
    private func record(_ key: String) -> URL { folder.appendingPathComponent(key + ".json") }

    /// Brings the layer cached under `key` into `blobs` (linked or copied, hashed as it lands, so a
    /// damaged entry is caught and removed); nil when there is no usable entry.
    package func load(_ key: String, into blobs: URL) -> ImageLayer.Written? {
        guard let data = FileSystem.contents(of: record(key)),
            let record = try? JSONDecoder().decode(Record.self, from: data),
            ImageReference.isDigest(record.digest), ImageReference.isDigest(record.diffID)
        else { return nil }
        let hex = String(record.digest.dropFirst(7))
        let destination = blobs.appendingPathComponent(hex)
        let temporary = blobs.appendingPathComponent(Temporaries.name(".cached"))
        do {
            // A hard link where the cache and the layout share a filesystem (no bytes copied),
            // else a copy. Either way what is hashed next is exactly what goes into the layout; a
            // blob changed in place through the link later fails this same check on the next load.
            do { try FileSystem.hardLink(atPath: blob(key).path, to: temporary.path) } catch {
                try FileSystem.copy(blob(key), to: temporary)
            }
            guard FileSystem.size(of: temporary) == record.size, try FileHasher.sha256(of: temporary) == hex else {
                try? FileSystem.remove(temporary)
                remove(key)
                return nil
            }
            try AtomicFile.commit(temporary, to: destination)
        } catch {
            try? FileSystem.remove(temporary)
            return nil
        }
        touch(key)
        return ImageLayer.Written(
            descriptor: OCIDescriptor(mediaType: OCIMediaType.layerGzip, digest: record.digest, size: record.size),
            diffID: record.diffID)
    }

    /// Keeps a copy of a freshly written layer, then trims the cache to its size. A cache that
    /// cannot be written costs the next run its speed-up, nothing else: failures are returned for
    /// a warning, never thrown.
    package func store(_ key: String, layer: ImageLayer.Written, from blobs: URL) -> String? {
        guard layer.descriptor.size <= maxBytes else { return nil }
        let source = blobs.appendingPathComponent(String(layer.descriptor.digest.dropFirst(7)))
        do {
            try FileSystem.createDirectory(folder)
            let temporary = folder.appendingPathComponent(Temporaries.name(".layer"))
            do {
                try FileSystem.copy(source, to: temporary)
                try AtomicFile.commit(temporary, to: blob(key))
            } catch {
                try? FileSystem.remove(temporary)
                throw error
            }
            try AtomicFile.write(
                try JSONEncoder().encode(
                    Record(digest: layer.descriptor.digest, size: layer.descriptor.size, diffID: layer.diffID)),
                to: record(key))
        } catch {
            return
                "cannot keep the layer in the cache \(folder.path): \((error as? RelctlError)?.message ?? "\(error)")"
        }
        trim()
        return nil
    }

    /// Removes the least recently used entries (by their record's time, renewed on every hit)
    /// until the cache holds at most `maxBytes`; blobs without a record are leftovers of an
    /// interrupted store and go first.
    package func trim() {
        guard let names = try? FileSystem.names(in: folder) else { return }
        struct Entry {
            var key: String
            var used: Date
            var size: Int64
        }
        var entries: [Entry] = []
        let records = Set(names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) })
        for name in names where name.hasSuffix(".layer") {
            let key = String(name.dropLast(6))
            let size = FileSystem.size(of: blob(key)) ?? 0
            guard records.contains(key),
                let used = FileSystem.modificationDate(of: record(key))
            else {
                entries.append(Entry(key: key, used: .distantPast, size: size))
                continue
            }
            entries.append(Entry(key: key, used: used, size: size))
        }
        var total = entries.reduce(Int64(0)) { $0 + $1.size }
        for entry in entries.sorted(by: { ($0.used, $0.key) < ($1.used, $1.key) }) where total > maxBytes {
            remove(entry.key)
            total -= entry.size
        }
    }

    private func remove(_ key: String) {
        // The record first: an entry without one is never read.
        try? FileSystem.remove(record(key))
        try? FileSystem.remove(blob(key))
    }

    private func touch(_ key: String) {
        FileSystem.touch(record(key))
    }
}
