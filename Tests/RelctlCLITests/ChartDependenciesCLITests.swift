import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 58, item 2: a chart with dependencies (argo-cd → redis-ha) is packaged with them, as
/// `helm package` after `helm dependency build`: taken from `charts/` (folder or `.tgz`) as they
/// are, or fetched from a chart repository (python's http.server over a folder with an
/// `index.yaml`), an OCI registry (Debian's docker-registry) or a `file://` folder; checked against
/// `Chart.lock`'s digest and the index's or manifest's digests; never packaged without them.
/// Helm is not installable here (no Debian package; PyPI's `helm` is another program), so each
/// package is read back with Python's tarfile and its layout checked as Helm documents it.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct ChartDependenciesCLITests {
    static let redisHAChart = """
        apiVersion: v2
        name: redis-ha
        version: 4.17.1
        appVersion: 6.2.5
        description: Highly available Kubernetes implementation of Redis
        """

    /// The chart with one dependency, as argo-cd declares redis-ha.
    static func chartYAML(repository: String, version: String = "4.17.1") -> String {
        """
        apiVersion: v2
        name: velostream
        description: Streaming SQL engine
        version: 1.0.0
        appVersion: "1.0.0"
        dependencies:
          - name: redis-ha
            version: \(version)
            repository: \(repository)
            condition: redis-ha.enabled

        """
    }

    /// Chart.lock as `helm dependency update` writes it, with Helm's digest (the SHA-256 of the
    /// JSON of [Chart.yaml's dependencies, the lock's]) computed here by Python's json module
    /// with Go's separators, independently of relctl.
    static func chartLock(
        repository: String, version: String = "4.17.1", condition: String = "redis-ha.enabled"
    )
        throws -> String
    {
        let script = """
            import hashlib, json, sys
            repository, version, condition = sys.argv[1:4]
            req = [{"name": "redis-ha", "version": version, "repository": repository, "condition": condition}]
            lock = [{"name": "redis-ha", "version": version, "repository": repository}]
            print(hashlib.sha256(json.dumps([req, lock], separators=(",", ":")).encode()).hexdigest())
            """
        let digest = try run("python3", ["-c", script, repository, version, condition])
        guard digest.status == 0 else { throw TestFailure("python: \(digest)") }
        return """
            dependencies:
            - name: redis-ha
              repository: \(repository)
              version: \(version)
            digest: sha256:\(digest.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            generated: "2022-06-29T14:57:19.381444853+02:00"

            """
    }

    /// `redis-ha-4.17.1.tgz` written by Python's tarfile as `helm package` lays a chart out.
    static func redisHAArchive(in directory: TemporaryDirectory, name: String = "redis-ha-4.17.1.tgz") throws -> URL {
        let script = """
            import io, sys, tarfile
            files = [("redis-ha/Chart.yaml", sys.argv[2]), ("redis-ha/values.yaml", "replicas: 3\\n"),
                     ("redis-ha/templates/statefulset.yaml", "kind: StatefulSet\\n")]
            with tarfile.open(sys.argv[1], "w:gz") as archive:
                for name, text in files:
                    data = text.encode()
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    info.mode = 0o644
                    archive.addfile(info, io.BytesIO(data))
            """
        let url = directory.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let made = try run("python3", ["-c", script, url.path, redisHAChart + "\n"])
        guard made.status == 0 else { throw TestFailure("python tarfile: \(made)") }
        return url
    }

    static let subchartMembers = [
        "velostream/charts/redis-ha/Chart.yaml", "velostream/charts/redis-ha/values.yaml",
        "velostream/charts/redis-ha/templates/statefulset.yaml",
    ]

    /// The members' names of a package, in order, and one member's text.
    func members(_ url: URL) throws -> (names: [String], text: [String: String]) {
        let script = """
            import json, sys, tarfile
            names, text = [], {}
            with tarfile.open(sys.argv[1], "r:gz") as archive:
                for member in archive.getmembers():
                    names.append(member.name)
                    if member.isfile():
                        text[member.name] = archive.extractfile(member).read().decode()
            print(json.dumps({"names": names, "text": text}))
            """
        let result = try run("python3", ["-c", script, url.path])
        guard result.status == 0 else { throw TestFailure("tarfile: \(result)") }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return (try #require(object["names"] as? [String]), try #require(object["text"] as? [String: String]))
    }

    /// Failed before: the chart was packaged without charts/redis-ha, exit 0.
    @Test func aDependencyThatCannotBeHadStopsThePackageNamingIt() throws {
        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        _ = try fixture.directory.write("charts/velostream/Chart.yaml", Self.chartYAML(repository: ""))
        let refused = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains("redis-ha") && refused.stderr.contains("was not packaged")
                && refused.stderr.contains("helm dependency build charts/velostream"), "\(refused)")
        #expect(
            !FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent("velostream-1.0.0.tgz").path))

        // A range without a lock is not guessed at.
        _ = try fixture.directory.write(
            "charts/velostream/Chart.yaml", Self.chartYAML(repository: "https://charts.invalid/", version: "~4.17.0"))
        let unpinned = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(unpinned.status == 1 && unpinned.stderr.contains("helm dependency update"), "\(unpinned)")
    }

    /// Failed before: a vendored charts/*.tgz was refused (exit 2).
    @Test func aVendoredArchiveIsTakenAsItIsAndLaidOutUnpacked() throws {
        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        let repository = "https://dandydeveloper.github.io/charts/"
        _ = try fixture.directory.write("charts/velostream/Chart.yaml", Self.chartYAML(repository: repository))
        _ = try fixture.directory.write("charts/velostream/Chart.lock", try Self.chartLock(repository: repository))
        _ = try Self.redisHAArchive(in: fixture.directory, name: "charts/velostream/charts/redis-ha-4.17.1.tgz")
        let packaged = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(packaged.status == 0, "\(packaged)")
        let package = fixture.dist.appendingPathComponent("velostream-1.0.0.tgz")
        let (names, text) = try members(package)
        #expect(
            names == ["velostream/Chart.yaml", "velostream/Chart.lock"] + Self.subchartMembers, "\(names)")
        #expect(text["velostream/charts/redis-ha/values.yaml"] == "replicas: 3\n")
        let bytes = try Data(contentsOf: package)
        let again = try relctl(["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(again.status == 0, "\(again)")
        #expect(try Data(contentsOf: package) == bytes, "not byte-identical")

        // A lock edited by hand (another condition in Chart.yaml than the lock was made from).
        _ = try fixture.directory.write(
            "charts/velostream/Chart.lock", try Self.chartLock(repository: repository, condition: "other.enabled"))
        let stale = try relctl(["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(
            stale.status == 1 && stale.stderr.contains("charts/velostream/Chart.lock")
                && stale.stderr.contains("out of sync"), "\(stale)")
        // `check` says so too, before any release is built.
        let checked = try relctl(["check"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(checked.status != 0 && checked.stderr.contains("out of sync"), "\(checked)")

        // A vendored archive of another version than the lock pins.
        _ = try fixture.directory.write(
            "charts/velostream/Chart.lock", try Self.chartLock(repository: repository, version: "4.18.0"))
        _ = try fixture.directory.write(
            "charts/velostream/Chart.yaml", Self.chartYAML(repository: repository, version: "4.18.0"))
        let other = try relctl(["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(
            other.status == 1 && other.stderr.contains("holds version 4.17.1")
                && other.stderr.contains("locks 4.18.0"), "\(other)")
    }

    /// A chart repository as `helm repo index` serves one: the version found in index.yaml, its
    /// relative URL resolved against the repository, the archive checked against the index's digest.
    @Test func aMissingDependencyIsFetchedFromItsChartRepositoryAndChecked() throws {
        let served = try TemporaryDirectory(prefix: "relctl-chart-repository")
        // The repository URL without a trailing slash: index.yaml and relative URLs are under it.
        let archive = try Self.redisHAArchive(in: served, name: "charts/redis-ha-4.17.1.tgz")
        let sum = try run("sha256sum", [archive.path]).stdout.prefix(64)
        func writeIndex(digest: some StringProtocol) throws {
            _ = try served.write(
                "charts/index.yaml",
                """
                apiVersion: v1
                entries:
                  redis-ha:
                  - apiVersion: v2
                    appVersion: 6.2.5
                    created: "2022-06-29T14:57:19.381444853+02:00"
                    description: Highly available Kubernetes implementation of Redis, a description
                      long enough that helm repo index folds it onto a second line
                    digest: \(digest)
                    name: redis-ha
                    urls:
                    - redis-ha-4.17.1.tgz
                    version: 4.17.1
                  - apiVersion: v2
                    name: redis-ha
                    urls:
                    - https://charts.invalid/redis-ha-4.17.0.tgz
                    version: 4.17.0
                generated: "2022-06-29T14:57:19.381444853+02:00"

                """)
        }
        try writeIndex(digest: sum)
        let server = try LoopbackServer(serving: served.url)
        defer { server.stop() }
        let repository = server.baseURL + "charts"

        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        _ = try fixture.directory.write("charts/velostream/Chart.yaml", Self.chartYAML(repository: repository))
        _ = try fixture.directory.write("charts/velostream/Chart.lock", try Self.chartLock(repository: repository))
        let packaged = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(packaged.status == 0, "\(packaged)")
        #expect(
            (packaged.stderr + packaged.stdout).contains("redis-ha 4.17.1 from \(repository)/redis-ha-4.17.1.tgz"),
            "\(packaged)")
        let package = fixture.dist.appendingPathComponent("velostream-1.0.0.tgz")
        let (names, _) = try members(package)
        #expect(names == ["velostream/Chart.yaml", "velostream/Chart.lock"] + Self.subchartMembers, "\(names)")
        #expect(try fixture.sums()["velostream-1.0.0.tgz"] != nil)
        let bytes = try Data(contentsOf: package)

        // An archive that is not the one the index vouches for.
        try writeIndex(digest: String(repeating: "0", count: 64))
        let tampered = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(
            tampered.status == 1 && tampered.stderr.contains("redis-ha 4.17.1")
                && tampered.stderr.contains("the repository index says"), "\(tampered)")
        #expect(try Data(contentsOf: package) == bytes, "a refused run changed the package")
    }

    /// An `oci://` repository: the chart manifest and its layer pulled through the images' client.
    @Test func aMissingDependencyIsPulledFromAnOCIRegistry() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let work = try TemporaryDirectory(prefix: "relctl-chart-oci")
        let archive = try Self.redisHAArchive(in: work)
        // Pushed as `helm push` pushes it: config (the chart's metadata) and the .tgz as the one layer.
        let push = """
            import hashlib, json, sys, urllib.request
            host, path = sys.argv[1], sys.argv[2]
            layer = open(path, "rb").read()
            config = json.dumps({"name": "redis-ha", "version": "4.17.1", "apiVersion": "v2"}).encode()
            def blob(data):
                digest = "sha256:" + hashlib.sha256(data).hexdigest()
                start = urllib.request.urlopen(urllib.request.Request(
                    f"http://{host}/v2/charts/redis-ha/blobs/uploads/", method="POST"))
                location = start.headers["Location"]
                if location.startswith("/"):
                    location = f"http://{host}" + location
                separator = "&" if "?" in location else "?"
                urllib.request.urlopen(urllib.request.Request(
                    location + separator + "digest=" + digest, data=data, method="PUT",
                    headers={"Content-Type": "application/octet-stream"}))
                return {"digest": digest, "size": len(data)}
            manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                        "config": dict(blob(config), mediaType="application/vnd.cncf.helm.config.v1+json"),
                        "layers": [dict(blob(layer), mediaType="application/vnd.cncf.helm.chart.content.v1.tar+gzip")]}
            urllib.request.urlopen(urllib.request.Request(
                f"http://{host}/v2/charts/redis-ha/manifests/4.17.1", data=json.dumps(manifest).encode(),
                method="PUT", headers={"Content-Type": "application/vnd.oci.image.manifest.v1+json"}))
            """
        let pushed = try run("python3", ["-c", push, registry.host, archive.path])
        #expect(pushed.status == 0, "\(pushed)")

        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        let repository = "oci://\(registry.host)/charts"
        _ = try fixture.directory.write("charts/velostream/Chart.yaml", Self.chartYAML(repository: repository))
        _ = try fixture.directory.write("charts/velostream/Chart.lock", try Self.chartLock(repository: repository))
        var environment = ChannelFixture.environment
        environment["DOCKER_CONFIG"] = fixture.url.appendingPathComponent(".docker").path
        let packaged = try relctl(["chart", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(packaged.status == 0, "\(packaged)")
        let (names, text) = try members(fixture.dist.appendingPathComponent("velostream-1.0.0.tgz"))
        #expect(names == ["velostream/Chart.yaml", "velostream/Chart.lock"] + Self.subchartMembers, "\(names)")
        #expect(text["velostream/charts/redis-ha/Chart.yaml"] == Self.redisHAChart + "\n")
        #expect(registry.requests().contains { $0.contains("/v2/charts/redis-ha/manifests/4.17.1") })

        // A version the registry does not hold.
        _ = try fixture.directory.write(
            "charts/velostream/Chart.yaml", Self.chartYAML(repository: repository, version: "4.18.0"))
        _ = try fixture.directory.write(
            "charts/velostream/Chart.lock", try Self.chartLock(repository: repository, version: "4.18.0"))
        let absent = try relctl(["chart", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(absent.status == 1 && absent.stderr.contains("redis-ha 4.18.0"), "\(absent)")
    }

    /// `file://` reads a chart folder inside the project, never one outside it; a range is allowed
    /// there (Helm checks it against the folder's chart, as it does for a chart in charts/).
    @Test func aFileDependencyIsReadInsideTheProjectOnly() throws {
        let fixture = try ChannelFixture()
        try fixture.packageAndChecksum()
        _ = try fixture.directory.write("charts/redis-ha/Chart.yaml", Self.redisHAChart + "\n")
        _ = try fixture.directory.write("charts/redis-ha/values.yaml", "replicas: 3\n")
        _ = try fixture.directory.write("charts/redis-ha/templates/statefulset.yaml", "kind: StatefulSet\n")
        _ = try fixture.directory.write(
            "charts/velostream/Chart.yaml", Self.chartYAML(repository: "file://../redis-ha", version: "\">=4.0.0\""))
        let packaged = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(packaged.status == 0, "\(packaged)")
        let (names, _) = try members(fixture.dist.appendingPathComponent("velostream-1.0.0.tgz"))
        #expect(names == ["velostream/Chart.yaml"] + Self.subchartMembers, "\(names)")

        _ = try fixture.directory.write(
            "charts/velostream/Chart.yaml", Self.chartYAML(repository: "file://../../../etc"))
        let outside = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(outside.status == 1 && outside.stderr.contains("outside the project"), "\(outside)")
    }
}
