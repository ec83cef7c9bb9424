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

/// `relctl image` end to end against a real registry (Debian's docker-registry), judged by
/// skopeo and umoci, and by running the pulled entrypoint with chroot.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct ImageCLITests {
    /// Every blob named by its digest, every referenced blob present.
    func checkLayout(_ layout: URL) throws -> [String: Any] {
        let blobs = layout.appendingPathComponent("blobs/sha256")
        for name in try FileManager.default.contentsOfDirectory(atPath: blobs.path) {
            let hash = try run("sha256sum", [blobs.appendingPathComponent(name).path]).stdout.prefix(64)
            #expect(String(hash) == name, "blob \(name) does not match its digest")
        }
        func load(_ digest: String) throws -> [String: Any] {
            let data = try Data(contentsOf: blobs.appendingPathComponent(String(digest.dropFirst(7))))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let top = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: layout.appendingPathComponent("index.json")))
                as? [String: Any])
        let entry = try #require((top["manifests"] as? [[String: Any]])?.first)
        let index = try load(try #require(entry["digest"] as? String))
        for manifest in try #require(index["manifests"] as? [[String: Any]]) {
            let body = try load(try #require(manifest["digest"] as? String))
            for blob in (body["layers"] as? [[String: Any]] ?? []) + [try #require(body["config"] as? [String: Any])] {
                let digest = try #require(blob["digest"] as? String)
                #expect(
                    FileManager.default.fileExists(
                        atPath: blobs.appendingPathComponent(String(digest.dropFirst(7))).path),
                    "missing blob \(digest)")
            }
        }
        return index
    }

    func imageDigest(_ result: RunResult) throws -> String {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let image = try #require((json["images"] as? [[String: Any]])?.first)
        return try #require(image["digest"] as? String)
    }

    @Test func layoutIsValidMultiPlatformAndIdenticalAcrossCopies() throws {
        let first = try ImageFixture(repository: "ghcr.io/acme/velostream")
        let second = try ImageFixture(
            repository: "ghcr.io/acme/velostream", reversed: true, umask: 0o077,
            fileTime: Date(timeIntervalSince1970: 1_000_000_000))

        let a = try relctl(["image", "--tag", "v1.0.0", "--json"], in: first.url)
        #expect(a.status == 0, "\(a)")
        let b = try relctl(["image", "--tag", "v1.0.0", "--json"], in: second.url)
        #expect(b.status == 0, "\(b)")
        let digest = try imageDigest(a)
        #expect(digest == (try imageDigest(b)), "same inputs, same digest")
        #expect(
            a.stdout.contains("\"linux/amd64\"") && a.stdout.contains("\"linux/arm64/v8\"")
                && !a.stdout.contains("windows"), "\(a.stdout)")
        #expect(a.stdout.contains("\"1.0.0\"") && a.stdout.contains("\"latest\""), "\(a.stdout)")

        let index = try checkLayout(first.layout)
        let platforms = (index["manifests"] as? [[String: Any]] ?? []).compactMap {
            $0["platform"] as? [String: String]
        }
        #expect(
            platforms == [
                ["os": "linux", "architecture": "amd64"], ["os": "linux", "architecture": "arm64", "variant": "v8"],
            ])
        let annotations = index["annotations"] as? [String: String] ?? [:]
        #expect(annotations["org.opencontainers.image.version"] == "1.0.0")
        #expect(annotations["org.opencontainers.image.created"] == "2026-01-02T03:04:05Z")
        #expect(annotations["org.opencontainers.image.revision"] == (try first.repository.git("rev-parse", "HEAD")))
        #expect(annotations["org.opencontainers.image.licenses"] == "Apache-2.0")

        // skopeo reads the layout, and the arm64 config says what it runs and as whom.
        let inspect = try run(
            "skopeo", ["inspect", "--override-arch", "arm64", "--config", "oci:\(first.layout.path):1.0.0"])
        #expect(inspect.status == 0, "\(inspect)")
        let config = try #require(
            try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect(config["architecture"] as? String == "arm64" && config["variant"] as? String == "v8")
        let execution = config["config"] as? [String: Any] ?? [:]
        #expect(execution["Entrypoint"] as? [String] == ["/usr/local/bin/velo-sql", "--serve"])
        #expect(execution["User"] as? String == "65532:65532")
        // The layers: 0:0, the commit time, normalised modes, sorted, everything under /usr.
        let listing = try run(
            "/bin/sh",
            [
                "-c",
                "for f in blobs/sha256/*; do if gzip -t \"$f\" 2>/dev/null; then tar -tvzf \"$f\" --numeric-owner; fi; done",
            ],
            in: first.layout, environment: ["TZ": "UTC"])
        let entries = listing.stdout.split(separator: "\n").map(String.init)
        #expect(entries.count == 18, "two layers of 9 entries: \(listing)")
        #expect(
            entries.allSatisfy { $0.contains(" 0/0 ") && $0.contains(" 2026-01-02 03:04 usr/") }, "\(listing.stdout)")
        #expect(
            entries.contains { $0.hasPrefix("-rwxr-xr-x 0/0") && $0.hasSuffix(" usr/local/bin/velo-cli") },
            "\(listing.stdout)")
        // LICENSE was written 0600 in the second copy; README and LICENSE are 0644 in the image.
        #expect(
            entries.contains {
                $0.hasPrefix("-rw-r--r-- 0/0") && $0.hasSuffix(" usr/local/share/velostream/LICENSE.txt")
            }, "\(listing.stdout)")
        let paths = entries.prefix(9).compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(
            paths == paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } && paths.first == "usr/", "\(paths)")
    }

    @Test func pushIsPullableRunnableAndIdempotent() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ImageFixture(repository: "\(registry.host)/acme/velostream")
        // With the layer cache (on by default), the second push knows its layers' digests before
        // anything is compressed and asks the registry first (docs/images.md, "Layer cache").
        let cache = try TemporaryDirectory(prefix: "relctl-layer-cache")
        let docker = [
            "DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path, "RELCTL_LAYER_CACHE": cache.path,
        ]

        // The dry run checks the registry and writes nothing.
        let dry = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--dry-run", "--json"], in: fixture.url, environment: docker)
        #expect(dry.status == 0, "\(dry)")
        #expect(
            !registry.requests().contains { $0.hasPrefix("POST ") || $0.hasPrefix("PUT ") || $0.hasPrefix("PATCH ") },
            "\(registry.requests())")

        let pushed = try relctl(["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: docker)
        #expect(pushed.status == 0, "\(pushed)")
        let digest = try imageDigest(pushed)
        #expect(digest == (try imageDigest(dry)), "the dry run prints the digest the push publishes")

        // Tags only after every manifest.
        let requests = registry.requests()
        let manifestPuts = requests.indices.filter {
            requests[$0].hasPrefix("PUT /v2/acme/velostream/manifests/sha256:")
        }
        let tagPuts = requests.indices.filter {
            requests[$0].hasPrefix("PUT /v2/acme/velostream/manifests/") && !requests[$0].contains("sha256:")
        }
        #expect(manifestPuts.count == 3 && tagPuts.count == 2, "\(requests)")
        #expect((manifestPuts.max() ?? .max) < (tagPuts.min() ?? 0), "\(requests)")

        let inspect = try run(
            "skopeo", ["inspect", "--tls-verify=false", "--raw", "docker://\(registry.host)/acme/velostream:latest"])
        #expect(inspect.status == 0, "\(inspect)")
        let raw = try run(
            "/bin/sh",
            [
                "-c",
                "skopeo inspect --tls-verify=false --raw docker://\(registry.host)/acme/velostream:1.0.0 | sha256sum",
            ])
        #expect("sha256:" + raw.stdout.prefix(64) == digest, "the registry serves the index relctl built")

        // Pull the amd64 image, unpack it and run its entrypoint in the unpacked root.
        let work = try TemporaryDirectory(prefix: "relctl-pull")
        let copy = try run(
            "skopeo",
            [
                "copy", "--src-tls-verify=false", "--override-arch", "amd64",
                "docker://\(registry.host)/acme/velostream:1.0.0", "oci:\(work.path)/pulled:1.0.0",
            ])
        #expect(copy.status == 0, "\(copy)")
        let unpack = try run("umoci", ["unpack", "--image", "\(work.path)/pulled:1.0.0", "\(work.path)/bundle"])
        #expect(unpack.status == 0, "\(unpack)")
        #expect(work.exists("bundle/rootfs/usr/local/share/velostream/README.md"))

        // Again: every tag already points at this index, so nothing is sent: one manifest HEAD per
        // tag, no blob HEAD, no upload, no PUT (issue 45: the re-push in one round trip per tag).
        let before = registry.requests().count
        let again = try relctl(["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: docker)
        #expect(again.status == 0, "\(again)")
        #expect(try imageDigest(again) == digest)
        let second = registry.requests().dropFirst(before)
        #expect(!second.contains { !$0.hasPrefix("HEAD ") && $0 != "GET /v2/" }, "\(Array(second))")
        #expect(second.filter { $0.hasPrefix("HEAD /v2/acme/velostream/manifests/") }.count == 2, "\(Array(second))")
        #expect(!second.contains { $0.hasPrefix("HEAD /v2/acme/velostream/blobs/") }, "\(Array(second))")
        #expect(again.stderr.contains("0 blob(s) uploaded, every tag already points at this index"), "\(again.stderr)")

        // Last, as it needs root (chroot): the pulled entrypoint runs in the unpacked root. The
        // fixture's entrypoint is a static C program (gcc and libc6-dev, `scripts/install-deps --test`).
        try #require(ImageFixture.staticExecutable != nil, "no C compiler linked a static program (gcc, libc6-dev)")
        try MachineRequirement.root.require()
        let ran = try run("chroot", ["\(work.path)/bundle/rootfs", "/usr/local/bin/velo-sql", "--serve"])
        #expect(ran.status == 0 && ran.stdout.contains("\(ImageFixture.greeting) --serve"), "\(ran)")
    }

    @Test func basicAuthFailureLeavesNoTagAndHelpersWork() throws {
        let registry = try TestRegistry(user: ("relctl", "s3cret"))
        defer { registry.stop() }
        let fixture = try ImageFixture(repository: "\(registry.host)/acme/velostream")
        let dockerDir = fixture.url.appendingPathComponent(".docker")
        let env = ["DOCKER_CONFIG": dockerDir.path]

        // No credentials at all.
        let anonymous = try relctl(["image", "--tag", "v1.0.0", "--push"], in: fixture.url, environment: env)
        #expect(anonymous.status == 1, "\(anonymous)")
        #expect(
            anonymous.stderr.contains("401 from \(registry.host) for acme/velostream")
                && anonymous.stderr.contains("docker login \(registry.host)"), "\(anonymous.stderr)")

        // A wrong password in `auths`: refused, and no tag exists afterwards.
        let wrong = Data("relctl:wrong".utf8).base64EncodedString()
        try fixture.repository.directory.write(
            ".docker/config.json", #"{"auths":{"\#(registry.host)":{"auth":"\#(wrong)"}}}"#)
        let refused = try relctl(["image", "--tag", "v1.0.0", "--push"], in: fixture.url, environment: env)
        #expect(refused.status == 1 && refused.stderr.contains("401 from \(registry.host)"), "\(refused)")
        let dryRefused = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--dry-run"], in: fixture.url, environment: env)
        #expect(dryRefused.status == 1 && dryRefused.stderr.contains("401 from \(registry.host)"), "\(dryRefused)")
        let tags = try run(
            "skopeo",
            [
                "list-tags", "--tls-verify=false", "--creds", "relctl:s3cret",
                "docker://\(registry.host)/acme/velostream",
            ])
        // The registry answers 404 for the repository's tag list (skopeo exits 1 saying so): nothing was pushed.
        #expect(
            tags.status == 1 && tags.stderr.contains("fetching tags list") && tags.stderr.contains("404"), "\(tags)")
        #expect(!registry.requests().contains { $0.hasPrefix("PUT /v2/acme/velostream/manifests/") })

        // The right password through a credential helper (the docker-credential protocol).
        let bin = fixture.url.appendingPathComponent("helpers")
        try fixture.repository.directory.write(
            "helpers/docker-credential-relctltest",
            """
            #!/bin/sh
            read -r server
            [ "$1" = get ] && [ "$server" = "\(registry.host)" ] || { echo "credentials not found in native keychain"; exit 1; }
            printf '{"ServerURL":"%s","Username":"relctl","Secret":"s3cret"}\\n' "$server"
            """, executable: true)
        try fixture.repository.directory.write(
            ".docker/config.json",
            #"{"auths":{"\#(registry.host)":{"auth":"\#(wrong)"}},"credHelpers":{"\#(registry.host)":"relctltest"}}"#)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let pushed = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url,
            environment: env.merging(["PATH": path]) { $1 })
        #expect(pushed.status == 0, "\(pushed)")
        let listed = try run(
            "skopeo",
            [
                "list-tags", "--tls-verify=false", "--creds", "relctl:s3cret",
                "docker://\(registry.host)/acme/velostream",
            ])
        #expect(listed.stdout.contains("\"1.0.0\"") && listed.stdout.contains("\"latest\""), "\(listed)")
    }

    @Test func bearerTokenPushFollowsTheChallengeAndAWrongPasswordLeavesNoTag()
        throws
    {
        let registry = try TestRegistry(auth: .token(name: "relctl", password: "t0ken-s3cret"))
        defer { registry.stop() }
        let fixture = try ImageFixture(repository: "\(registry.host)/acme/velostream")
        let env = ["DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path]
        func login(_ password: String) throws {
            let auth = Data("relctl:\(password)".utf8).base64EncodedString()
            try fixture.repository.directory.write(
                ".docker/config.json", #"{"auths":{"\#(registry.host)":{"auth":"\#(auth)"}}}"#)
        }
        func tokenRequests() -> [String] {
            ((try? String(contentsOf: registry.tokenLog, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
        }

        // A wrong password: the token server refuses it, relctl says where and what to do, and
        // nothing at all is written to the registry.
        try login("wrong")
        let refused = try relctl(["image", "--tag", "v1.0.0", "--push"], in: fixture.url, environment: env)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains("401 from \(registry.host) for acme/velostream")
                && refused.stderr.contains("the token service refused the stored credentials")
                && refused.stderr.contains("docker login \(registry.host)"), "\(refused.stderr)")
        #expect(
            tokenRequests().contains("401 scope=repository:acme/velostream:pull,push"), "\(tokenRequests())")
        #expect(
            !registry.requests().contains { $0.hasPrefix("POST ") || $0.hasPrefix("PUT ") || $0.hasPrefix("PATCH ") },
            "\(registry.requests())")

        // The right password: the dry run gets a token granting push and writes nothing; the push
        // sends every request with that token.
        try login("t0ken-s3cret")
        let dry = try relctl(
            ["image", "--tag", "v1.0.0", "--push", "--dry-run", "--json"], in: fixture.url, environment: env)
        #expect(dry.status == 0, "\(dry)")
        #expect(!registry.requests().contains { $0.hasPrefix("PUT ") }, "\(registry.requests())")
        let pushed = try relctl(["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: env)
        #expect(pushed.status == 0, "\(pushed)")
        let digest = try imageDigest(pushed)
        #expect(digest == (try imageDigest(dry)))
        #expect(
            tokenRequests().filter { $0 == "200 scope=repository:acme/velostream:pull,push" }.count == 2,
            "\(tokenRequests())")

        // The registry really is behind tokens: without credentials skopeo is refused; with them
        // it gets its own token and reads the index relctl pushed.
        let anonymous = try run(
            "skopeo", ["inspect", "--tls-verify=false", "--raw", "docker://\(registry.host)/acme/velostream:1.0.0"])
        #expect(anonymous.status != 0, "\(anonymous)")
        let raw = try run(
            "/bin/sh",
            [
                "-c",
                "skopeo inspect --tls-verify=false --creds relctl:t0ken-s3cret --raw docker://\(registry.host)/acme/velostream:1.0.0 | sha256sum",
            ])
        #expect("sha256:" + raw.stdout.prefix(64) == digest, "\(raw)")
    }

    /// A layer much larger than the memory relctl may use: uploads stream from the blob's file.
    @Test func largeLayerIsStreamedToTheRegistryInFlatMemory() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ImageFixture(repository: "\(registry.host)/acme/large")
        // 160 MiB of random bytes (incompressible: the layer stays that large), gzipped at level 1
        // to keep the test quick.
        let size = 160 << 20
        let random = try run(
            "/bin/sh",
            [
                "-c",
                "head -c \(size) /dev/urandom > target/\(ImageFixture.amd64)/release/velo-cli && sed -i 's/^\\[archive\\]$/[archive]\\ncompression-level = 1/' relctl.toml",
            ], in: fixture.url)
        #expect(random.status == 0, "\(random)")
        // Peak RSS of the whole `relctl image --push`, measured by its parent (python3) with getrusage.
        let measured = try run(
            "python3",
            [
                "-c",
                "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                relctlBinary.path, "image", "--tag", "v1.0.0", "--push", "--target", ImageFixture.amd64,
            ], in: fixture.url,
            environment: [
                "DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path, "NO_COLOR": "1",
                "RELCTL_LAYER_CACHE": "off",
            ])
        let fields = measured.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(fields.count == 2 && fields[0] == 0, "\(measured)")
        let peakKB = fields.last ?? 0

        let blobs = fixture.url.appendingPathComponent("dist/oci/velostream/blobs/sha256")
        let largest = try FileManager.default.contentsOfDirectory(atPath: blobs.path).map {
            (
                name: $0,
                size:
                    (try? FileManager.default.attributesOfItem(atPath: blobs.appendingPathComponent($0).path)[.size]
                    as? Int) ?? 0
            )
        }.max { $0.size < $1.size }
        let layer = try #require(largest)
        #expect(layer.size > size, "the layer holds the random file: \(layer)")
        let stored = registry.directory.url.appendingPathComponent(
            "data/docker/registry/v2/blobs/sha256/\(layer.name.prefix(2))/\(layer.name)/data")
        #expect(
            (try? FileManager.default.attributesOfItem(atPath: stored.path)[.size] as? Int) == layer.size,
            "the registry holds the whole layer")
        #expect(peakKB > 0 && peakKB < 112 * 1024, "peak RSS \(peakKB) kB for a \(layer.size)-byte layer")
    }

    @Test func baseImageByDigestIsPulledCachedAndMounted() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let cache = try TemporaryDirectory(prefix: "relctl-cache")
        // The base: a two-platform image pushed to the registry (by relctl, judged by skopeo below).
        let baseProject = try ImageFixture(
            repository: "\(registry.host)/acme/base", extra: "name = \"base\"\ntags = [\"stable\"]")
        let env = [
            "DOCKER_CONFIG": baseProject.url.appendingPathComponent(".docker").path, "XDG_CACHE_HOME": cache.path,
        ]
        let base = try relctl(["image", "--tag", "v1.0.0", "--push", "--json"], in: baseProject.url, environment: env)
        #expect(base.status == 0, "\(base)")
        let baseDigest = try imageDigest(base)

        let fixture = try ImageFixture(
            repository: "\(registry.host)/acme/app", entrypoint: #"["velo-cli"]"#,
            extra: "base = \"\(registry.host)/acme/base@\(baseDigest)\"\nbinaries = [\"velo-cli\"]")
        let built = try relctl(["image", "--tag", "v1.0.0", "--push", "--json"], in: fixture.url, environment: env)
        #expect(built.status == 0, "\(built)")
        #expect(FileManager.default.fileExists(atPath: cache.url.appendingPathComponent("relctl/oci/oci-layout").path))
        // Base layers were mounted from acme/base, not uploaded again.
        #expect(
            registry.requests().contains { $0.contains("/v2/acme/app/blobs/uploads/?mount=") }, "\(registry.requests())"
        )
        #expect(built.stderr.contains("2 mounted"), "\(built.stderr)")

        let inspect = try run(
            "skopeo",
            ["inspect", "--tls-verify=false", "--override-arch", "arm64", "docker://\(registry.host)/acme/app:1.0.0"])
        #expect(inspect.status == 0, "\(inspect)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any])
        #expect((json["Layers"] as? [String])?.count == 2, "\(inspect.stdout)")

        // Offline rebuild from the cache gives the same digest (the registry is not asked).
        registry.stop()
        let offline = try relctl(["image", "--tag", "v1.0.0", "--json"], in: fixture.url, environment: env)
        #expect(offline.status == 0, "\(offline)")
        #expect(try imageDigest(offline) == (try imageDigest(built)))
    }

    @Test func checkReportsEveryImageProblemWithItsLine() throws {
        let fixture = try ImageFixture(
            repository: "ghcr.io/Acme/velostream",
            extra: """
                targets = ["x86_64-pc-windows-msvc", "riscv64gc-unknown-linux-gnu"]
                base = "alpine:3.20"
                tagz = ["x"]
                """)
        try fixture.repository.directory.write(
            "relctl.toml",
            try fixture.repository.directory.read("relctl.toml").replacingOccurrences(
                of: "entrypoint = [\"velo-sql\", \"--serve\"]", with: "entrypoint = [\"velo-sqll\"]"))
        let result = try relctl(["check"], in: fixture.url)
        #expect(result.status == 2, "\(result)")
        let lines = result.stderr
        #expect(
            lines.contains("relctl.toml:22:") && lines.contains("repository paths must be lowercase; write `acme`"),
            "\(lines)")
        #expect(
            lines.contains("entrypoint `velo-sqll` is not one of this image's binaries (did you mean `velo-sql`?)"),
            "\(lines)")
        #expect(lines.contains("image target `x86_64-pc-windows-msvc` is not Linux"), "\(lines)")
        #expect(lines.contains("image target `riscv64gc-unknown-linux-gnu` is not a configured [[target]]"), "\(lines)")
        #expect(lines.contains("must be pinned by digest"), "\(lines)")
        #expect(lines.contains("unknown key `tagz` in [image] (did you mean `tags`?)"), "\(lines)")
    }
}
