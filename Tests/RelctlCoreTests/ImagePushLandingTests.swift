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

/// `image --push` against a registry whose upload `Location` points at another origin that
/// answers 201 and stores nothing (issue 26, item 3).
@Suite("Image push: credentials and landed blobs", .timeLimit(.minutes(30)), .removesTemporaries)
struct ImagePushLandingTests {
    /// A one-platform OCI layout written by hand: config, one layer, manifest, index.
    static func layout(in directory: TemporaryDirectory) throws -> (digest: String, path: String) {
        func blob(_ data: Data) throws -> OCIDescriptor {
            let scratch = try directory.write("scratch", String(decoding: data, as: UTF8.self))
            let digest = "sha256:" + (try FileHasher.sha256(of: scratch))
            try directory.write(
                "layout/blobs/sha256/\(digest.dropFirst(7))", String(decoding: data, as: UTF8.self))
            return OCIDescriptor(mediaType: "application/octet-stream", digest: digest, size: Int64(data.count))
        }
        let config = try blob(Data(#"{"architecture":"amd64","os":"linux"}"#.utf8))
        let layer = try blob(Data("not really a tar, the registry does not look".utf8))
        let manifest = try blob(
            try JSONEncoder().encode(OCIManifest(config: config, layers: [layer], annotations: nil)))
        let index = try blob(
            try JSONEncoder().encode(
                OCIIndex(
                    manifests: [
                        OCIDescriptor(mediaType: OCIMediaType.manifest, digest: manifest.digest, size: manifest.size)
                    ],
                    annotations: nil)))
        return (index.digest, directory.url.appendingPathComponent("layout").path)
    }

    @Test("an upload Location on another origin gets no credentials, and a blob that never landed fails the push")
    func foreignUploadLocation() async throws {
        let origins = try TwoOrigins(registryAuth: "basic")
        defer { origins.stop() }
        try await withTemporaryDirectory { directory in
            let registry = "127.0.0.1:\(origins.portA)"
            let auth = Data("user:registry-secret".utf8).base64EncodedString()
            try directory.write("docker/config.json", #"{"auths":{"\#(registry)":{"auth":"\#(auth)"}}}"#)
            let (digest, layout) = try Self.layout(in: directory)
            let reference = ImageReference(registry: registry, repository: "acme/app")
            let image = BuiltImage(
                name: "app", repository: "\(registry)/acme/app", digest: digest, tags: ["1.0.0"],
                platforms: ["linux/amd64"], layout: layout, base: nil, reference: reference)
            let pusher = ImagePusher(
                context: Context(
                    workingDirectory: directory.url,
                    environment: ["DOCKER_CONFIG": directory.url.appendingPathComponent("docker").path]))
            let error = await #expect(throws: ImageError.self) { try await pusher.push(image) }
            #expect(error?.message.contains("does not hold the blob") == true)
            let received = try origins.received()
            let elsewhere = received.filter { $0.origin == "B" }
            #expect(!elsewhere.isEmpty)
            #expect(elsewhere.allSatisfy { $0.authorization == nil })
            // Nothing was tagged: no manifest reached the registry.
            #expect(!received.contains { $0.method == "PUT" && $0.path.contains("/manifests/") })
        }
    }
}
