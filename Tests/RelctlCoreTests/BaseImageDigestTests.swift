import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// A base image's digests come from a registry: they never become file names unless they are
/// digests, and a cached blob is used only while it still has its digest (issue 26, item 16).
@Suite("Base image digests", .timeLimit(.minutes(30)), .removesTemporaries)
struct BaseImageDigestTests {
    static func sha256(_ data: Data, in directory: TemporaryDirectory) throws -> String {
        "sha256:" + (try FileHasher.sha256(of: try directory.write("hash-me", String(decoding: data, as: UTF8.self))))
    }

    /// A manifest whose one layer is `layer`, served with its config; returns the manifest digest.
    static func serveBase(
        layer: String, origins: TwoOrigins, in directory: TemporaryDirectory
    ) throws -> String {
        let config = Data(#"{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":[]}}"#.utf8)
        let configDigest = try sha256(config, in: directory)
        try origins.serve(config, as: configDigest)
        let manifest = Data(
            """
            {"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json",\
            "config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"\(configDigest)","size":\(config.count)},\
            "layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"\(layer)","size":5}]}
            """.utf8)
        let digest = try sha256(manifest, in: directory)
        try origins.serve(manifest, as: digest)
        return digest
    }

    /// The Docker config for the stand-in registry (origin A answers only with Basic credentials).
    static func environment(_ origins: TwoOrigins, in directory: TemporaryDirectory) throws -> [String: String] {
        let auth = Data("user:secret".utf8).base64EncodedString()
        try directory.write(
            "docker/config.json", #"{"auths":{"127.0.0.1:\#(origins.portA)":{"auth":"\#(auth)"}}}"#)
        return [
            "XDG_CACHE_HOME": directory.url.appendingPathComponent("cache").path,
            "DOCKER_CONFIG": directory.url.appendingPathComponent("docker").path,
        ]
    }

    @Test("a layer digest that is a path is refused before any file is read")
    func pathDigest() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        try await withTemporaryDirectory { directory in
            let digest = try Self.serveBase(layer: "sha256:../../planted", origins: origins, in: directory)
            // What `blobs/sha256/../../planted` would read: a local file posing as the layer.
            try directory.write("cache/relctl/oci/planted", "local")
            let store = BaseImageStore(
                context: Context(
                    workingDirectory: directory.url, environment: try Self.environment(origins, in: directory)))
            let base = ImageReference(registry: "127.0.0.1:\(origins.portA)", repository: "acme/base", digest: digest)
            let error = await #expect(throws: ImageError.self) {
                try await store.resolve(base, platforms: [ImagePlatform(os: "linux", architecture: "amd64")])
            }
            #expect(
                error?.message.contains("`sha256:../../planted`, which is not `sha256:` and 64 lowercase hex digits")
                    == true,
                "\(String(describing: error?.message))")
            // Nothing asked the registry for it either.
            #expect(!(try origins.received()).contains { $0.path.contains("planted") })
        }
    }

    @Test("a cached blob that lost its digest is fetched again")
    func tamperedCache() async throws {
        let origins = try TwoOrigins()
        defer { origins.stop() }
        try await withTemporaryDirectory { directory in
            let layer = Data("layer".utf8)
            let layerDigest = try Self.sha256(layer, in: directory)
            try origins.serve(layer, as: layerDigest)
            let digest = try Self.serveBase(layer: layerDigest, origins: origins, in: directory)
            let cache = directory.url.appendingPathComponent("cache")
            let store = BaseImageStore(
                context: Context(
                    workingDirectory: directory.url, environment: try Self.environment(origins, in: directory)))
            let base = ImageReference(registry: "127.0.0.1:\(origins.portA)", repository: "acme/base", digest: digest)
            let platform = ImagePlatform(os: "linux", architecture: "amd64")
            _ = try await store.resolve(base, platforms: [platform])
            let cached = cache.appendingPathComponent("relctl/oci/blobs/sha256/\(layerDigest.dropFirst(7))")
            #expect(FileManager.default.contents(atPath: cached.path) == layer)
            try Data("poisoned".utf8).write(to: cached)
            let before = try origins.received().count
            _ = try await store.resolve(base, platforms: [platform])
            #expect(FileManager.default.contents(atPath: cached.path) == layer)
            #expect(try origins.received().dropFirst(before).contains { $0.path.hasSuffix(layerDigest) })
        }
    }
}
