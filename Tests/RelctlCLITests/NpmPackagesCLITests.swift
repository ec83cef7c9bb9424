import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[npm]` (issue 61): the release writes one npm package per target and a main package with a
/// launcher, laid out as `npm pack` lays out a folder; the real npm installs them with no
/// network and the command runs; `relctl publish` sends them to a strict registry stand-in on
/// 127.0.0.1 (faults injected), `npm install --registry` of the main package pulls its platform
/// package from there, and publishing again sends nothing.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct NpmPackagesCLITests {
    static let platformNames = [
        "acme-hello-linux-x64-1.0.0.tgz", "acme-hello-linux-arm64-1.0.0.tgz", "acme-hello-darwin-x64-1.0.0.tgz",
    ]
    static let mainName = "acme-hello-1.0.0.tgz"

    func fixture(registry: String? = nil) throws -> LinuxPackageFixture {
        try LinuxPackageFixture(
            packages: """
                [npm]
                package = "@acme/hello"
                \(registry.map { "registry = \"\($0)\"" } ?? "")

                """)
    }

    /// Every member of a gzipped tarball as `name mode mtime uid gid type`, in order.
    func members(_ tarball: URL) throws -> [String] {
        let listed = try run(
            "python3",
            [
                "-c",
                """
                import sys, tarfile
                for m in tarfile.open(sys.argv[1]).getmembers():
                    print(m.name, oct(m.mode), m.mtime, m.uid, m.gid, m.type.decode())
                """,
                tarball.path,
            ])
        try #require(listed.status == 0, "\(listed)")
        return listed.stdout.split(separator: "\n").map(String.init)
    }

    /// npm with its own empty cache and config, pointed at `registry` (nowhere by default).
    func npm(_ arguments: [String], in directory: URL, home: URL, registry: String = "http://127.0.0.1:9/") throws
        -> RunResult
    {
        try run(
            "npm", arguments + ["--registry", registry, "--no-audit", "--no-fund", "--no-update-notifier"],
            in: directory,
            environment: [
                "HOME": home.path, "npm_config_cache": home.appendingPathComponent("cache").path,
                "npm_config_userconfig": home.appendingPathComponent("npmrc").path,
            ])
    }

    @Test func theReleaseWritesPackagesAsNpmPackLaysThemOutAndNpmInstallsThemOffline() throws {
        let fixture = try fixture()
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        try #require(released.status == 0, "\(released)")
        let sums = try String(contentsOf: fixture.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        let manifest = try String(contentsOf: fixture.dist.appendingPathComponent("manifest.json"), encoding: .utf8)
        for name in Self.platformNames + [Self.mainName] {
            #expect(sums.contains("  \(name)\n"), "\(name) missing in\n\(sums)")
            #expect(manifest.contains("\"name\" : \"\(name)\""), "\(name) missing in\n\(manifest)")
        }
        #expect(manifest.contains("\"format\" : \"npm\""))
        let check = try sh("sha256sum -c SHA256SUMS", in: fixture.dist)
        #expect(check.status == 0, "\(check)")
        // The archives' readers leave the packages out: the notes' install section names none.
        let notes = try String(contentsOf: fixture.dist.appendingPathComponent("RELEASE_NOTES.md"), encoding: .utf8)
        #expect(!notes.contains("tar -xf acme-hello"), "\(notes)")

        // Each tarball is what `npm pack` makes of its own extracted folder: the same members in
        // the same order, with the same modes, times and owners.
        let work = try TemporaryDirectory(prefix: "relctl-npm-pack")
        for name in Self.platformNames + [Self.mainName] {
            let tarball = fixture.dist.appendingPathComponent(name)
            let folder = work.url.appendingPathComponent(name + ".d")
            let unpacked = try sh(
                "mkdir -p \"$D/out\" && tar -xzf \"$T\" -C \"$D\" && cd \"$D/package\" && npm pack --pack-destination \"$D/out\" --ignore-scripts >/dev/null",
                environment: ["D": folder.path, "T": tarball.path, "HOME": work.path])
            try #require(unpacked.status == 0, "\(unpacked)")
            let repacked = folder.appendingPathComponent("out/" + name)
            #expect(try members(tarball) == members(repacked), "\(name)")
            let gzip = try Data(contentsOf: tarball).prefix(2)
            #expect(gzip == Data([0x1F, 0x8B]))
        }
        let platform = try members(fixture.dist.appendingPathComponent(Self.platformNames[0]))
        #expect(platform == ["package/bin/hello 0o755 499162500 0 0 0", "package/package.json 0o644 499162500 0 0 0"])
        let package = try sh(
            "tar -xzOf \(Self.platformNames[0]) package/package.json", in: fixture.dist)
        #expect(package.stdout.contains("\"libc\" : [\n    \"glibc\"\n  ]"), "\(package)")
        #expect(package.stdout.contains("\"license\" : \"MIT\""), "\(package)")
        #expect(package.stdout.contains("\"os\" : [\n    \"linux\"\n  ]"), "\(package)")
        let main = try sh("tar -xzOf \(Self.mainName) package/package.json", in: fixture.dist)
        #expect(main.stdout.contains("\"@acme/hello-darwin-x64\" : \"1.0.0\""), "\(main)")
        #expect(main.stdout.contains("\"hello\" : \"bin/hello.js\""), "\(main)")
        #expect(!main.stdout.contains("scripts"), "nothing runs at install time")

        // npm installs the main package and this machine's platform package with no network.
        let home = try TemporaryDirectory(prefix: "relctl-npm-home")
        let prefix = try TemporaryDirectory(prefix: "relctl-npm-prefix")
        let installed = try npm(
            [
                "install", "-g", "--offline", "--prefix", prefix.path, fixture.dist.appendingPathComponent(Self.mainName).path,
                fixture.dist.appendingPathComponent(Self.platformNames[0]).path,
            ], in: work.url, home: home.url)
        try #require(installed.status == 0, "\(installed)")
        let ran = try run(prefix.url.appendingPathComponent("bin/hello").path, ["--version"])
        #expect(ran.status == 0 && ran.stdout == "hello 1.0.0 x86_64-unknown-linux-gnu\n", "\(ran)")

        // Without its platform package the launcher names the package it expected and exits 1.
        let bare = try TemporaryDirectory(prefix: "relctl-npm-bare")
        let alone = try npm(
            ["install", "-g", "--offline", "--prefix", bare.path, fixture.dist.appendingPathComponent(Self.mainName).path],
            in: work.url, home: home.url)
        try #require(alone.status == 0, "\(alone)")
        let missing = try run(bare.url.appendingPathComponent("bin/hello").path, [])
        #expect(missing.status == 1 && missing.stderr.contains("@acme/hello-linux-x64"), "\(missing)")
    }

    @Test func thePackagesAreTheSameBytesFromTwoRuns() throws {
        let first = try fixture()
        let second = try fixture()
        for fixture in [first, second] {
            let released = try relctl(["release", "v1.0.0"], in: fixture.url)
            try #require(released.status == 0, "\(released)")
        }
        for name in Self.platformNames + [Self.mainName] {
            let a = try Data(contentsOf: first.dist.appendingPathComponent(name))
            let b = try Data(contentsOf: second.dist.appendingPathComponent(name))
            #expect(a == b, "\(name) differs between two runs")
        }
    }

    @Test func aDryRunPlansThePackages() throws {
        let fixture = try fixture()
        let planned = try relctl(["release", "v1.0.0", "--dry-run"], in: fixture.url)
        #expect(planned.status == 0, "\(planned)")
        for name in Self.platformNames + [Self.mainName] {
            #expect((planned.stdout + planned.stderr).contains(name), "\(name) not planned:\n\(planned)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.dist.path))
    }

    @Test func publishSendsThePackagesOnceAndNpmInstallsFromTheRegistry() async throws {
        let registry = try NpmRegistryStandIn()
        defer { registry.stop() }
        let fixture = try fixture(registry: registry.url)
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        try #require(released.status == 0, "\(released)")

        // No token: exit 2 before any request.
        let noToken = try relctl(["publish", "v1.0.0", "--registry", "npm"], in: fixture.url, environment: ["NPM_TOKEN": ""])
        #expect(noToken.status == 2 && noToken.stderr.contains("NPM_TOKEN"), "\(noToken)")
        #expect(try await registry.log().isEmpty)

        // The first PUT fails with 500 before storing, the second stores and then answers 500:
        // the retry of the first succeeds, the retry of the second finds the version there
        // (403) and the registry's integrity equal to its own, so it is done.
        try await registry.setFaults(
            #"[{"method": "PUT", "status": 500, "count": 1}, {"method": "PUT", "status": 500, "count": 1, "store": true}]"#)
        let environment = ["NPM_TOKEN": NpmRegistryStandIn.token, "RELCTL_HTTP_RETRIES": "3"]
        let published = try relctl(
            ["publish", "v1.0.0", "--registry", "npm", "--json"], in: fixture.url, environment: environment)
        #expect(published.status == 0, "\(published)")
        // `--json`: the registry's report in the shape of a forge's.
        let report = try JSONSerialization.jsonObject(with: Data(published.stdout.utf8)) as? [String: Any]
        #expect(report?["publisher"] as? String == "npm" && report?["outcome"] as? String == "published")
        #expect(report?["tag"] as? String == "v1.0.0" && report?["repository"] as? String == registry.url, "\(published.stdout)")
        // (The package whose PUT was stored before its 500 is found there by the retry: unchanged.)
        let uploaded = report?["uploaded"] as? [String] ?? []
        let unchanged = report?["unchanged"] as? [String] ?? []
        #expect(uploaded.count == 3 && unchanged.count == 1, "\(published.stdout)")
        #expect(Set(uploaded + unchanged) == Set(Self.platformNames + [Self.mainName]), "\(published.stdout)")
        #expect(!(published.stdout + published.stderr).contains(NpmRegistryStandIn.token))
        let log = try await registry.log()
        let puts = log.filter { $0.method == "PUT" }
        #expect(puts.allSatisfy { $0.authorization == "good" }, "\(puts)")
        #expect(puts.filter { $0.status == 200 }.count == 3, "\(puts)")
        #expect(puts.last?.path == "/@acme%2fhello" && puts.last?.status == 200, "the main package goes last: \(puts)")

        // npm installs the main package from the registry; its optional dependency for this
        // machine comes with it, and the command runs.
        let home = try TemporaryDirectory(prefix: "relctl-npm-home")
        let prefix = try TemporaryDirectory(prefix: "relctl-npm-prefix")
        let installed = try npm(
            ["install", "-g", "--prefix", prefix.path, "@acme/hello@1.0.0"], in: home.url, home: home.url,
            registry: registry.url)
        try #require(installed.status == 0, "\(installed)")
        let ran = try run(prefix.url.appendingPathComponent("bin/hello").path, [])
        #expect(ran.stdout == "hello 1.0.0 x86_64-unknown-linux-gnu\n", "\(ran)")

        // Again: every version is there with the same integrity; nothing is sent.
        let before = try await registry.log().count
        let again = try relctl(
            ["publish", "v1.0.0", "--registry", "npm", "--json"], in: fixture.url, environment: environment)
        #expect(again.status == 0 && again.stderr.contains("already published"), "\(again)")
        let second = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect(second?["outcome"] as? String == "already-published" && (second?["uploaded"] as? [String]) == [])
        #expect(Set(second?["unchanged"] as? [String] ?? []) == Set(Self.platformNames + [Self.mainName]), "\(again.stdout)")
        #expect(try await registry.log().dropFirst(before).allSatisfy { $0.method == "GET" })
    }

    /// `relctl publish TAG --json` publishing to a forge and to npm: one report each, forge first,
    /// npm's in the forge's shape.
    @Test func publishJSONReportsTheForgeThenTheRegistry() async throws {
        let registry = try NpmRegistryStandIn()
        defer { registry.stop() }
        let fixture = try fixture(registry: registry.url)
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        try #require(released.status == 0, "\(released)")
        // The forge holds the tag the release made.
        let tag = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0")
        let forge = try GitHubStandIn(repository: "acme/hello", tags: ["v1.0.0=\(tag)"])
        defer { forge.stop() }
        let environment = forge.environment(repository: "acme/hello").merging(
            ["NPM_TOKEN": NpmRegistryStandIn.token]) { _, new in new }
        let published = try relctl(["publish", "v1.0.0", "--json"], in: fixture.url, environment: environment)
        try #require(published.status == 0, "\(published)")
        let reports = try #require(
            try JSONSerialization.jsonObject(with: Data(published.stdout.utf8)) as? [[String: Any]], "\(published.stdout)")
        #expect(reports.map { $0["publisher"] as? String } == ["github", "npm"], "\(published.stdout)")
        #expect(reports.allSatisfy { $0["tag"] as? String == "v1.0.0" && $0["outcome"] as? String == "published" })
        #expect(
            Set(reports[1]["uploaded"] as? [String] ?? []) == Set(Self.platformNames + [Self.mainName]),
            "\(published.stdout)")
        // The forge got the npm tarballs as assets too (SHA256SUMS lists them).
        #expect(Set(reports[0]["uploaded"] as? [String] ?? []).isSuperset(of: Self.platformNames + [Self.mainName]))
    }

    @Test func aVersionTheRegistryHoldsWithOtherBytesIsExitOneNamingIt() async throws {
        let registry = try NpmRegistryStandIn()
        defer { registry.stop() }
        let fixture = try fixture(registry: registry.url)
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        try #require(released.status == 0, "\(released)")
        try await registry.seed(name: "@acme/hello-linux-arm64", version: "1.0.0", integrity: "sha512-AAAA")
        let published = try relctl(
            ["publish", "v1.0.0", "--registry", "npm"], in: fixture.url, environment: ["NPM_TOKEN": NpmRegistryStandIn.token])
        #expect(published.status == 1, "\(published)")
        #expect(published.stderr.contains("@acme/hello-linux-arm64@1.0.0"), "\(published)")
        // The main package is never sent while a platform package is not right.
        #expect(try await !registry.log().contains { $0.method == "PUT" && $0.path == "/@acme%2fhello" })
    }
}
