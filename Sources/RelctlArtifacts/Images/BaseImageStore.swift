import Crypto
import Foundation
import RelctlBasics
import RelctlModel
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Pulls base images pinned by digest into a local cache (the blob store of an OCI layout under
/// `$XDG_CACHE_HOME/relctl/oci`, else `~/.cache/relctl/oci`). Every blob is checked against its
/// digest before it is kept, so a cached blob is trusted and never fetched again.
package struct BaseImageStore: Sendable {
    package var context: Context

    package var cacheFolder: URL {
        // The XDG spec has a relative XDG_CACHE_HOME ignored; a relative HOME is relative to here.
        if let cache = context.environment["XDG_CACHE_HOME"].flatMap(AbsolutePath.init(absolute:)) {
            return cache.appending("relctl/oci").url
        }
        let home = context.environment["HOME"] ?? FileSystem.homeDirectory.path
        return AbsolutePath(home, relativeTo: AbsolutePath(context.workingDirectory)).appending(".cache/relctl/oci").url
    }

    /// The base for each platform (empty for `scratch`). A multi-platform base is matched per
    /// platform; a single-platform base must be that platform.
    package func resolve(_ base: ImageReference?, platforms: [ImagePlatform]) async throws -> [ImagePlatform: BaseImage]
    {
        guard let base, let digest = base.digest else { return [:] }
        let blobs = cacheFolder.appendingPathComponent("blobs/sha256")
        do { try FileSystem.createDirectory(blobs) } catch {
            throw ImageError.writeFailed(path: blobs.path, reason: "cannot create the base image cache")
        }
        if !FileSystem.exists(atPath: cacheFolder.appendingPathComponent("oci-layout").path) {
            try AtomicFile.write(
                Data(#"{"imageLayoutVersion":"1.0.0"}"#.utf8), to: cacheFolder.appendingPathComponent("oci-layout"))
        }
        let credentials = try await DockerCredentials(environment: context.environment, processes: context.processes)
            .lookup(registry: base.registry)
        let client = RegistryClient(reference: base, credentials: credentials, push: false, http: context.http)
        let fetcher = Fetcher(client: client, blobs: blobs, base: base)

        let top = try await fetcher.manifest(digest)
        struct Probe: Decodable {
            var mediaType: String?
            var manifests: [OCIDescriptor]?
        }
        let probe = try OCIJSON.decode(Probe.self, from: top, what: "base image \(base)")
        var result: [ImagePlatform: BaseImage] = [:]
        for platform in platforms {
            var manifestDigest = digest
            var body = top
            if let entries = probe.manifests {
                let candidates = entries.filter {
                    ($0.platform?.os, $0.platform?.architecture) == (platform.os, platform.architecture)
                }
                guard
                    let chosen = candidates.first(where: {
                        platform.accepts($0.platform ?? platform) && $0.platform?.variant == platform.variant
                    }) ?? candidates.first(where: { platform.accepts($0.platform ?? platform) })
                else {
                    throw ImageError.noBasePlatform(
                        base: base.description, platform: platform.description,
                        available: entries.compactMap { $0.platform?.description })
                }
                manifestDigest = chosen.digest
                body = try await fetcher.manifest(chosen.digest)
            }
            let manifest = try OCIJSON.decode(
                OCIManifest.self, from: body, what: "base image manifest \(manifestDigest)")
            let config = try OCIJSON.decode(
                OCIImageConfig.self, from: try await fetcher.blob(manifest.config.digest),
                what: "base image config \(manifest.config.digest)")
            guard config.os == platform.os, config.architecture == platform.architecture else {
                throw ImageError.noBasePlatform(
                    base: base.description, platform: platform.description,
                    available: [
                        ImagePlatform(os: config.os, architecture: config.architecture, variant: config.variant)
                            .description
                    ])
            }
            for layer in manifest.layers { _ = try await fetcher.blobFile(layer) }
            result[platform] = BaseImage(
                manifest: manifest, manifestDigest: manifestDigest, config: config, cache: blobs)
        }
        return result
    }

    /// Fetches and verifies manifests and blobs through the cache.
    private final class Fetcher: Sendable {
        let client: RegistryClient
        let blobs: URL
        let base: ImageReference
        /// Nothing is asked of the registry when everything is cached (offline rebuilds work).
        private let pinged = Mutex(false)

        init(client: RegistryClient, blobs: URL, base: ImageReference) {
            self.client = client
            self.blobs = blobs
            self.base = base
        }

        static let accept = [
            OCIMediaType.index, OCIMediaType.manifest, OCIMediaType.dockerList, OCIMediaType.dockerManifest,
        ].joined(separator: ", ")

        func manifest(_ digest: String) async throws -> Data {
            try await cached(digest) { try await get("manifests/\(digest)", accept: Self.accept, digest: digest) }
        }

        func blob(_ digest: String) async throws -> Data {
            try await cached(digest) { try await get("blobs/\(digest)", accept: nil, digest: digest) }
        }

        /// A layer, streamed from the registry into the cache (never whole in memory) and cut off
        /// at the size its descriptor declares; kept only once its digest matches.
        func blobFile(_ layer: OCIDescriptor) async throws -> URL {
            let url = try cacheURL(layer.digest)
            if FileKind.isRegularFile(url.path), (try? "sha256:" + FileHasher.sha256(of: url)) == layer.digest {
                return url
            }
            try await pingOnce()
            let scratch = AtomicFile.temporaryURL(for: url)
            defer { try? FileSystem.remove(scratch) }
            let path = "blobs/\(layer.digest)"
            let response = try await client.send("GET", path, download: (scratch, layer.size))
            guard response.status == 200 else {
                throw ImageError.registry(
                    registry: client.registry, repository: client.repository, action: "GET \(path) of the base image",
                    status: response.status,
                    detail: client.maskedDetail(FileSystem.prefix(of: scratch, count: SecretMask.messageWindow)))
            }
            let actual = "sha256:" + (try FileHasher.sha256(of: scratch))
            guard actual == layer.digest else {
                throw ImageError.badContent(
                    what: "base image \(base) from \(client.registry)",
                    reason: "\(path) has digest \(actual), not \(layer.digest)")
            }
            try AtomicFile.commit(scratch, to: url)
            return url
        }

        /// The cache file of `digest`. The digest comes from the registry's manifests:
        /// `sha256:../../x` must never become a file name, here or in the layout built from it.
        private func cacheURL(_ digest: String) throws -> URL {
            guard ImageReference.isDigest(digest) else {
                throw ImageError.badContent(
                    what: "base image \(base) from \(client.registry)",
                    reason: "it names the blob `\(digest)`, which is not `sha256:` and 64 lowercase hex digits")
            }
            return blobs.appendingPathComponent(String(digest.dropFirst(7)))
        }

        private func pingOnce() async throws {
            if !pinged.withLock({ pinged in
                defer { pinged = true }; return pinged
            }) {
                try await client.ping()
            }
        }

        private func cached(_ digest: String, fetch: () async throws -> Data) async throws -> Data {
            let url = try cacheURL(digest)
            // A cached blob is used only while it still has its digest (a cache is a folder anyone
            // of this user can write to); otherwise it is fetched and checked again.
            if let data = FileSystem.contents(of: url), "sha256:" + FileHasher.hex(SHA256.hash(data: data)) == digest {
                return data
            }
            try await pingOnce()
            let data = try await fetch()
            try AtomicFile.write(data, to: url)
            return data
        }

        private func get(_ path: String, accept: String?, digest: String) async throws -> Data {
            let response = try await client.send("GET", path, headers: accept.map { ["Accept": $0] } ?? [:])
            guard response.status == 200 else {
                throw ImageError.registry(
                    registry: client.registry, repository: client.repository, action: "GET \(path) of the base image",
                    status: response.status, detail: client.maskedDetail(response.body))
            }
            let data = response.body
            let actual = "sha256:" + FileHasher.hex(SHA256.hash(data: data))
            guard actual == digest else {
                throw ImageError.badContent(
                    what: "base image \(base) from \(client.registry)",
                    reason: "\(path) has digest \(actual), not \(digest)")
            }
            return data
        }
    }
}

/// A base image for one platform: its manifest, its config, and where its blobs are cached.
package struct BaseImage: Sendable {
    package var manifest: OCIManifest
    package var manifestDigest: String
    package var config: OCIImageConfig
    package var cache: URL

    package func blob(_ digest: String) -> URL {
        cache.appendingPathComponent(String(digest.dropFirst("sha256:".count)))
    }
}
