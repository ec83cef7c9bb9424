import Foundation
import RelctlArtifacts
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

/// `image --push` uploads each new layer in chunks while it is compressed, falls back to one
/// monolithic upload when the registry refuses chunks, and keeps compressed layers in a cache
/// so an unchanged image is not compressed again (issue 31). The bytes and digests never depend
/// on either: every test compares them with a plain build.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct ImageStreamingCLITests {
    /// Streaming is opt-in (`ImagePusher.streamsLayers`): every push in this suite asks for it.
    static let stream = ["RELCTL_IMAGE_STREAM": "1"]

    /// The example image with a 10 MiB incompressible `velo-cli` for amd64: its layer is larger
    /// than one chunk (`StreamedBlobUpload.maximumChunk`), so at least one PATCH is certain
    /// however fast the compressor runs.
    static func bigFixture(repository: String) throws -> ImageFixture {
        let fixture = try ImageFixture(repository: repository)
        let noise = try #require(FileHandle(forReadingAtPath: "/dev/urandom")).readData(ofLength: 10 << 20)
        try noise.write(
            to: fixture.url.appendingPathComponent("target/\(ImageFixture.amd64)/release/velo-cli"))
        return fixture
    }

    static func digest(_ result: RunResult) throws -> String {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let image = try #require((json["images"] as? [[String: Any]])?.first)
        return try #require(image["digest"] as? String)
    }

    /// The layout's blobs: name → size, each checked against its name.
    static func blobs(_ layout: URL) throws -> [String: Int] {
        let folder = layout.appendingPathComponent("blobs/sha256")
        var sizes: [String: Int] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let file = folder.appendingPathComponent(name)
            #expect(try FileHasher.sha256(of: file) == name)
            sizes[name] = Int(FileSystem.size(of: file) ?? -1)
        }
        return sizes
    }

    /// Builds without pushing (nothing streamed, no cache): the bytes every push must match.
    static func reference(_ fixture: ImageFixture) throws -> (digest: String, blobs: [String: Int]) {
        let plain = try relctl(["image", "--tag", "v1.0.0", "--json"], in: fixture.url)
        #expect(plain.status == 0, "\(plain)")
        return (try digest(plain), try blobs(fixture.layout))
    }

    /// The big fixture built plainly for reference, then pushed to a stand-in with `faults`: the
    /// push must succeed with the reference's digest whatever the faults.
    static func pushToStandIn(
        faults: [RegistryStandIn.Fault]
    ) throws -> (RegistryStandIn, ImageFixture, (digest: String, blobs: [String: Int]), RunResult) {
        let standIn = try RegistryStandIn(faults: faults)
        let fixture = try bigFixture(repository: "\(standIn.host)/acme/velostream")
        let expected = try reference(fixture)
        let pushed = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: Self.stream)
        #expect(pushed.status == 0, "\(pushed)")
        #expect(try digest(pushed) == expected.digest)
        return (standIn, fixture, expected, pushed)
    }

    @Test func layersStreamInChunksToTheRealRegistryWithUnchangedDigests() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try Self.bigFixture(repository: "\(registry.host)/acme/velostream")
        let env = ["DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path]
        let expected = try Self.reference(fixture)

        for run in 1...2 {
            // Each run to a new repository, so every blob is uploaded again.
            let repository = "acme/velostream\(run)"
            try fixture.repository.directory.write(
                "relctl.toml", ImageFixture.config(repository: "\(registry.host)/\(repository)"))
            let pushed = try relctl(
                ["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url,
                environment: env.merging(Self.stream) { $1 })
            #expect(pushed.status == 0, "\(pushed)")
            #expect(try Self.digest(pushed) == expected.digest, "run \(run): the digest of the unstreamed build")
            #expect(try Self.blobs(fixture.layout) == expected.blobs, "run \(run): the same blobs, byte for byte")
            #expect(pushed.stderr.contains("2 while compressed"), "\(pushed.stderr)")
            let patches = registry.requests().filter { $0.hasPrefix("PATCH /v2/\(repository)/blobs/uploads/") }
            #expect(!patches.isEmpty, "the large layer went in chunks: \(registry.requests())")
            // The registry serves exactly the index relctl built and wrote.
            let raw = try RelctlTestSupport.run(
                "/bin/sh",
                [
                    "-c",
                    "skopeo inspect --tls-verify=false --raw docker://\(registry.host)/\(repository):1.0.0 | sha256sum",
                ])
            #expect("sha256:" + raw.stdout.prefix(64) == expected.digest)
        }
        // Without RELCTL_IMAGE_STREAM a push asks the registry first and sends whole blobs only:
        // the contract's "a push sends a blob only when the registry lacks it".
        try fixture.repository.directory.write(
            "relctl.toml", ImageFixture.config(repository: "\(registry.host)/acme/velostream3"))
        let before = registry.requests().count
        let plain = try relctl(["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: env)
        #expect(plain.status == 0, "\(plain)")
        #expect(try Self.digest(plain) == expected.digest)
        let plainRequests = registry.requests().dropFirst(before)
        #expect(!plainRequests.contains { $0.hasPrefix("PATCH ") }, "\(Array(plainRequests))")
        #expect(plainRequests.contains { $0.hasPrefix("HEAD /v2/acme/velostream3/blobs/") }, "\(Array(plainRequests))")
        #expect(!plain.stderr.contains("while compressed"), "\(plain.stderr)")
        // skopeo can copy the whole image back: every layer the registry holds matches its digest.
        let work = try TemporaryDirectory(prefix: "relctl-pull")
        let copy = try RelctlTestSupport.run(
            "skopeo",
            [
                "copy", "--src-tls-verify=false", "--override-arch", "amd64",
                "docker://\(registry.host)/acme/velostream2:1.0.0", "oci:\(work.path)/pulled:1.0.0",
            ])
        #expect(copy.status == 0, "\(copy)")
    }

    @Test(arguments: [RegistryStandIn.Fault.patch416, .patch405, .patchNoLocation])
    func aRegistryThatRefusesChunksGetsEachLayerWhole(fault: RegistryStandIn.Fault) throws {
        let (standIn, fixture, expected, pushed) = try Self.pushToStandIn(faults: [fault])
        defer { standIn.stop() }
        #expect(pushed.stderr.contains("uploading it whole"), "\(pushed.stderr)")
        // The small arm64 layer needs no PATCH (its bytes ride in the closing PUT, which no fault
        // touches): it still goes while compressed; the large one went whole.
        #expect(pushed.stderr.contains("4 blob(s) uploaded (10.3 MiB, 1 while compressed)"), "\(pushed.stderr)")
        let requests = try standIn.requests()
        #expect(requests.allSatisfy { $0.violation == nil }, "\(requests.compactMap(\.violation))")
        let patches = requests.filter { $0.method == "PATCH" }
        #expect(!patches.isEmpty, "a chunk was tried")
        if fault == .patchNoLocation {
            #expect(patches.allSatisfy { $0.status == 202 })
        } else {
            #expect(patches.allSatisfy { $0.status == (fault == .patch416 ? 416 : 405) })
        }
        // The refused session was cancelled, and every layer then went whole, checked by digest.
        #expect(requests.contains { $0.method == "DELETE" && $0.status == 204 }, "\(requests.map(\.path))")
        for (name, size) in expected.blobs where size > 4096 {
            #expect(
                requests.contains {
                    $0.method == "PUT" && $0.content_range == nil && $0.bytes == size && $0.status == 201
                },
                "the layer \(name) was uploaded whole")
            let stored = try Data(contentsOf: fixture.layout.appendingPathComponent("blobs/sha256/\(name)"))
            #expect(standIn.blob("sha256:" + name) == stored, "the stand-in holds the layout's bytes")
        }
    }

    @Test func chunksFollowTheSpecAndARateLimitIsWaitedOut() throws {
        let (standIn, _, expected, pushed) = try Self.pushToStandIn(faults: [.patch429Once])
        defer { standIn.stop() }
        #expect(pushed.stderr.contains("2 while compressed"), "no fallback: \(pushed.stderr)")
        let requests = try standIn.requests()
        #expect(requests.allSatisfy { $0.violation == nil }, "\(requests.compactMap(\.violation))")
        let patches = requests.filter { $0.method == "PATCH" }
        // The 429 was waited out and the same chunk sent again, then accepted.
        #expect(patches.first?.status == 429, "\(patches.map(\.status))")
        #expect(patches.count >= 2 && patches[1].status == 202 && patches[1].content_range == patches[0].content_range)
        #expect(patches.dropFirst().allSatisfy { $0.status == 202 })
        // The chunks of a session are contiguous from 0, the closing PUT continues them, and the
        // stand-in stored exactly the layout's bytes.
        let layer = try #require(expected.blobs.max { $0.value < $1.value })
        let accepted = patches.filter { $0.status == 202 }.compactMap(\.content_range)
        var next = 0
        for range in accepted {
            let bounds = range.split(separator: "-").compactMap { Int($0) }
            #expect(bounds.count == 2 && bounds[0] == next, "\(accepted)")
            next = (bounds.last ?? 0) + 1
        }
        let close = try #require(
            requests.first {
                $0.method == "PUT"
                    && ($0.path.contains("digest=sha256%3A\(layer.key)")
                        || $0.path.contains("digest=sha256:\(layer.key)"))
            })
        #expect(next + close.bytes == layer.value, "chunks \(accepted) + final \(close.bytes) bytes = the layer")
        #expect(standIn.blob("sha256:" + layer.key)?.count == layer.value)
    }

    @Test("an upload Location on another origin gets no credentials for its chunks either")
    func chunksToAForeignLocationCarryNoCredentials() throws {
        let origins = try TwoOrigins(registryAuth: "basic")
        defer { origins.stop() }
        let registry = "127.0.0.1:\(origins.portA)"
        let fixture = try Self.bigFixture(repository: "\(registry)/acme/velostream")
        let auth = Data("user:registry-secret".utf8).base64EncodedString()
        try fixture.repository.directory.write(
            ".docker/config.json", #"{"auths":{"\#(registry)":{"auth":"\#(auth)"}}}"#)
        let pushed = try relctl(
            ["image", "--tag", "v1.0.0", "--push"], in: fixture.url,
            environment: [
                "DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path, "RELCTL_IMAGE_STREAM": "1",
            ])
        // Origin B answers the chunk 200 (not 202): refused, then the whole upload "lands" there
        // with a 201, but the registry does not hold it, so the push fails untagged.
        #expect(pushed.status == 1 && pushed.stderr.contains("does not hold the blob"), "\(pushed)")
        let received = try origins.received()
        let elsewhere = received.filter { $0.origin == "B" }
        #expect(elsewhere.contains { $0.method == "PATCH" }, "\(elsewhere.map(\.method))")
        #expect(elsewhere.allSatisfy { $0.authorization == nil })
        #expect(
            received.filter { $0.origin == "A" && $0.path.hasPrefix("/v2/acme") }.allSatisfy { $0.authorization != nil }
        )
        #expect(!received.contains { $0.method == "PUT" && $0.path.contains("/manifests/") })
    }

    @Test func anUnchangedImageComesFromTheCacheAndADamagedEntryIsRebuilt() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ImageFixture(repository: "\(registry.host)/acme/velostream")
        let cache = try TemporaryDirectory(prefix: "relctl-layer-cache")
        let env = [
            "DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path, "RELCTL_LAYER_CACHE": cache.path,
        ]
        let expected = try Self.reference(fixture)

        let first = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url,
            environment: env.merging(Self.stream) { $1 })
        #expect(first.status == 0 && first.stderr.contains("layers: 2 compressed, 0 from the cache"), "\(first)")
        #expect(try Self.digest(first) == expected.digest)
        let posts = registry.requests().filter { $0.hasPrefix("POST ") }.count

        let second = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url,
            environment: env.merging(Self.stream) { $1 })
        #expect(second.status == 0 && second.stderr.contains("layers: 0 compressed, 2 from the cache"), "\(second)")
        #expect(try Self.digest(second) == expected.digest)
        #expect(try Self.blobs(fixture.layout) == expected.blobs)
        // Known layers are HEADed first: nothing is sent again.
        #expect(registry.requests().filter { $0.hasPrefix("POST ") }.count == posts)
        #expect(second.stderr.contains("0 blob(s) uploaded"), "\(second.stderr)")

        let names = try FileManager.default.contentsOfDirectory(atPath: cache.path).sorted()
        let layers = names.filter { $0.hasSuffix(".layer") }
        #expect(layers.count == 2 && names.filter { $0.hasSuffix(".json") }.count == 2, "\(names)")

        // Damage one entry (same size, other bytes): it is caught, rebuilt and replaced.
        let damaged = cache.url.appendingPathComponent(try #require(layers.first))
        var bytes = try Data(contentsOf: damaged)
        bytes.replaceSubrange(0..<min(64, bytes.count), with: Data(repeating: 0, count: min(64, bytes.count)))
        try bytes.write(to: damaged)
        let third = try relctl(
            ["image", "--tag", "v1.0.0", "--json"], in: fixture.url, environment: env.merging(Self.stream) { $1 })
        #expect(third.status == 0 && third.stderr.contains("layers: 1 compressed, 1 from the cache"), "\(third)")
        #expect(try Self.digest(third) == expected.digest)
        #expect(try Self.blobs(fixture.layout) == expected.blobs)
        let record = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: damaged.deletingPathExtension().appendingPathExtension("json")))
                as? [String: Any])
        #expect(
            "sha256:" + (try FileHasher.sha256(of: damaged)) == record["digest"] as? String,
            "the entry was replaced by the rebuilt layer")

        // Off means off; a bad size is bad input.
        let off = try relctl(
            ["image", "--tag", "v1.0.0"], in: fixture.url,
            environment: env.merging(["RELCTL_LAYER_CACHE": "off"]) { $1 })
        #expect(off.status == 0 && off.stderr.contains("layers: 2 compressed, 0 from the cache"), "\(off)")
        let bad = try relctl(
            ["image", "--tag", "v1.0.0"], in: fixture.url,
            environment: env.merging(["RELCTL_LAYER_CACHE_MAX": "lots"]) { $1 })
        #expect(bad.status == 2 && bad.stderr.contains("RELCTL_LAYER_CACHE_MAX=`lots`"), "\(bad)")
    }

    @Test func aDryRunThenTheRealReleaseBuildsEachLayerOnce() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ReleaseFixture()
        try ImageReleaseCLITests().withImage(fixture, repository: "\(registry.host)/acme/demo")
        let cache = try TemporaryDirectory(prefix: "relctl-layer-cache")
        let env = [
            "DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path, "RELCTL_LAYER_CACHE": cache.path,
        ]
        let dry = try relctl(
            ["release", "v1.0.0", "--dry-run", "--push", "--json"], in: fixture.url,
            environment: env.merging(Self.stream) { $1 })
        #expect(dry.status == 0 && dry.stderr.contains("layers: 2 compressed, 0 from the cache"), "\(dry)")
        let real = try relctl(
            ["release", "v1.0.0", "--push", "--json"], in: fixture.url, environment: env.merging(Self.stream) { $1 })
        #expect(real.status == 0 && real.stderr.contains("layers: 0 compressed, 2 from the cache"), "\(real)")
        let planned = try #require(try ImageReleaseCLITests().images(dry).first)
        let pushed = try #require(try ImageReleaseCLITests().images(real).first)
        #expect(pushed["digest"] as? String == planned["digest"] as? String)
    }
}
