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

/// The image layer cache's settings, keys and size bound (issue 31); the CLI tests prove hits,
/// misses and a damaged entry end to end.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct LayerCacheTests {
    @Test func theEnvironmentChoosesTheFolderTheBoundOrNothing() throws {
        let here = URL(fileURLWithPath: "/work/project")
        func folder(_ environment: [String: String]) throws -> String? {
            try LayerCache.configured(environment: environment, workingDirectory: here)?.folder.path
        }
        #expect(try folder(["HOME": "/home/dev"]) == "/home/dev/.cache/relctl/layers")
        #expect(
            try folder(["HOME": "/home/dev", "XDG_CACHE_HOME": "/var/cache/dev"]) == "/var/cache/dev/relctl/layers")
        // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
        #expect(try folder(["HOME": "/home/dev", "XDG_CACHE_HOME": "cache"]) == "/home/dev/.cache/relctl/layers")
        #expect(try folder(["RELCTL_LAYER_CACHE": "ci-cache", "XDG_CACHE_HOME": "/x"]) == "/work/project/ci-cache")
        for off in ["off", "OFF", "0", "false", "no"] {
            #expect(try folder(["RELCTL_LAYER_CACHE": off]) == nil)
        }
        let bound = try LayerCache.configured(
            environment: ["HOME": "/h", "RELCTL_LAYER_CACHE_MAX": "64"], workingDirectory: here)
        #expect(bound?.maxBytes == 64 << 20)
        #expect(
            try LayerCache.configured(environment: ["HOME": "/h"], workingDirectory: here)?.maxBytes
                == LayerCache.defaultMaxMiB << 20)
        for bad in ["lots", "-1", "1.5"] {
            let error = #expect(throws: ImageError.self) {
                try LayerCache.configured(environment: ["RELCTL_LAYER_CACHE_MAX": bad], workingDirectory: here)
            }
            #expect(error?.exitCode == .badInput && error?.message.contains("RELCTL_LAYER_CACHE_MAX=`\(bad)`") == true)
        }
    }

    @Test func theKeyFollowsEveryInputAndNotWhereAFileLives() async throws {
        try await withTemporaryDirectory { directory in
            let a = try directory.write("a/velo-sql", "same bytes")
            let b = try directory.write("b/velo-sql", "same bytes")
            let c = try directory.write("c/velo-sql", "other bytes")
            func key(
                _ file: URL, path: String = "local/bin/velo-sql", mode: UInt32 = 0o755, mtime: Int = 1,
                level: Int = 6
            ) async throws -> String {
                try await LayerCache.key(
                    [
                        ArchiveEntry(path: "local/", content: .directory, mode: 0o755, origin: "dir"),
                        ArchiveEntry(path: path, content: .file(file), mode: mode, origin: file.path),
                    ], top: "usr", mtime: mtime, level: level, chunkSize: 1 << 20)
            }
            let base = try await key(a)
            #expect(try await key(b) == base, "the same bytes elsewhere: the same layer")
            #expect(try await key(c) != base)
            #expect(try await key(a, path: "local/bin/velo-cli") != base)
            #expect(try await key(a, mode: 0o644) != base)
            #expect(try await key(a, mtime: 2) != base)
            #expect(try await key(a, level: 9) != base)
        }
    }

    @Test func theLeastRecentlyUsedEntriesGoFirst() throws {
        try withTemporaryDirectory { directory in
            let blobs = try directory.write("blobs/.keep", "").deletingLastPathComponent()
            let cache = LayerCache(folder: directory.url.appendingPathComponent("cache"), maxBytes: 2500)
            func layer(_ text: String) throws -> ImageLayer.Written {
                let data = Data(String(repeating: text, count: 1000).utf8)
                let scratch = blobs.appendingPathComponent("scratch")
                try data.write(to: scratch)
                let hex = try FileHasher.sha256(of: scratch)
                try FileManager.default.moveItem(at: scratch, to: blobs.appendingPathComponent(hex))
                return ImageLayer.Written(
                    descriptor: OCIDescriptor(mediaType: OCIMediaType.layerGzip, digest: "sha256:" + hex, size: 1000),
                    diffID: "sha256:" + hex)
            }
            let keys = ["k1", "k2", "k3"].map { String(repeating: $0, count: 32) }
            for (index, key) in keys.enumerated() {
                #expect(cache.store(key, layer: try layer(String(index)), from: blobs) == nil)
                // Older use times for earlier entries, as if used one after another.
                try FileManager.default.setAttributes(
                    [.modificationDate: Date(timeIntervalSince1970: 1_000_000 + Double(index))],
                    ofItemAtPath: cache.folder.appendingPathComponent(key + ".json").path)
            }
            cache.trim()
            let names = Set(try FileManager.default.contentsOfDirectory(atPath: cache.folder.path))
            #expect(names == Set(keys.dropFirst().flatMap { [$0 + ".layer", $0 + ".json"] }), "\(names)")
            // A hit renews an entry's time: the next eviction takes the other one.
            #expect(cache.load(keys[1], into: blobs) != nil)
            #expect(cache.store(String(repeating: "k4", count: 32), layer: try layer("4"), from: blobs) == nil)
            let after = Set(try FileManager.default.contentsOfDirectory(atPath: cache.folder.path))
            #expect(after.contains(keys[1] + ".layer") && !after.contains(keys[2] + ".layer"), "\(after)")
        }
    }
}
