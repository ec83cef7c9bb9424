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

/// `relctl release TAG --push --publish` against the GitHub stand-in, whose tags are the bare
/// remote's (so the tag check sees exactly what the release pushed).
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ReleasePublishCLITests {
    struct Plan: Decodable {
        struct Stage: Decodable { var name: String; var status: String; var detail: String? }
        var ok: Bool
        var stages: [Stage]
    }

    private func environment(_ server: GitHubStandIn, token: String = GitHubStandIn.token) -> [String: String] {
        server.environment(token: token, repository: "acme/velostream")
    }

    @Test func aDryRunChecksTheAPIAndWritesNothing() async throws {
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture() }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        let result = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--dry-run", "--push", "--publish", "--json"], in: fixture.url,
                environment: environment(server))
        }
        #expect(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        // Only the channels, the repository branch, npm and PyPI (none configured here) publish after the GitHub release.
        let stage = try #require(
            plan.stages.last { !["channel-publish", "repository-publish", "npm-publish", "pypi-publish"].contains($0.name) })
        #expect(stage.name == "publish" && stage.status == "ok", "\(plan.stages)")
        // Two archives, their two SBOMs, SHA256SUMS and manifest.json.
        #expect(
            stage.detail?.contains("would publish 6 assets to acme/velostream (no release for v1.0.0 yet; 6 to upload")
                == true, "\(stage)")
        let log = try await server.log()
        #expect(!log.isEmpty && log.allSatisfy { $0.method == "GET" && $0.authorized })
        #expect(try await server.releases().isEmpty)

        // A dry run with a bad token fails on the publish stage, as the real run would.
        let bad = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--dry-run", "--push", "--publish"], in: fixture.url,
                environment: environment(server, token: "nope"))
        }
        #expect(bad.status == 1 && bad.stderr.contains("Bad credentials"), "\(bad)")
    }

    @Test func theRealRunPublishesLastAndAFailureIsFinishedByPublish() async throws {
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture() }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }

        // Creating the draft fails (a 502, retries off): tag pushed and dist/ sealed, the publish
        // stage fails and says how to finish. (A wrong token now stops the preflight, before the build.)
        try await server.setFaults(#"[{"kind": "create", "action": "status", "status": 502, "times": 5}]"#)
        var failing = environment(server)
        failing["RELCTL_HTTP_RETRIES"] = "1"
        let fixed = failing
        let failed = try await TemporaryScope.blocking {
            try relctl(["release", "v1.0.0", "--push", "--publish"], in: fixture.url, environment: fixed)
        }
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("finish publishing with `relctl publish v1.0.0`"), "\(failed)")
        #expect(try fixture.remoteTags() == ["v1.0.0"], "the release is sealed: the pushed tag stays")
        #expect(try await server.releases().isEmpty)

        let finished = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0"], in: fixture.url, environment: environment(server))
        }
        #expect(finished.status == 0, "\(finished)")
        let release = try #require(try await server.releases().first)
        #expect(!release.draft && release.tag_name == "v1.0.0" && release.name == "demo v1.0.0")
        #expect(release.body == (try fixture.repository.directory.read("dist/RELEASE_NOTES.md")))
        #expect(
            release.assets.map(\.name).sorted() == [
                "SHA256SUMS", "demo-v1.0.0-aarch64-unknown-linux-gnu.cdx.json",
                "demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz",
                "demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json", "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz",
                "manifest.json",
            ])
    }

    /// Issue 59: the tag's release is already published (by hand, or an earlier run) without the
    /// archives this release would publish. The preflight asks GitHub before the build: exit 1
    /// naming them, the build never runs (its marker is never written), no tag here or on the
    /// remote, and only GETs reach GitHub.
    @Test func aPublishedReleaseLackingAssetsStopsTheReleaseBeforeTheBuild() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-build-ran-\(UUID())")
        defer { try? FileManager.default.removeItem(at: marker) }
        let fixture = try await TemporaryScope.blocking {
            try ReleaseFixture(buildCommand: "touch '\(marker.path)' && " + ReleaseFixture.standInBuild)
        }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        try await server.seed(tag: "v1.0.0", draft: false, assets: ["SHA256SUMS": Data("by hand\n".utf8)])
        // The real run first (a dry run goes on in its scratch clone to show every problem it finds).
        for dry in [[], ["--dry-run"]] {
            let result = try await TemporaryScope.blocking {
                try relctl(
                    ["release", "v1.0.0", "--push", "--publish"] + dry, in: fixture.url,
                    environment: environment(server))
            }
            #expect(result.status == 1, "\(dry) \(result)")
            for triple in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
                #expect(
                    result.stderr.contains("already published without asset `demo-v1.0.0-\(triple).tar.gz`"),
                    "\(dry) \(result)")
            }
            if dry.isEmpty { #expect(!FileManager.default.fileExists(atPath: marker.path), "the build ran") }
        }
        #expect(try fixture.remoteTags().isEmpty)
        #expect(try fixture.repository.git("tag", "--list").isEmpty)
        let log = try await server.log()
        #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path)" })")
        #expect(try await server.releases().first?.assets.map(\.name) == ["SHA256SUMS"])
    }

    /// Issue 59's leftover: the tag's release is already published (immutable) with every name this
    /// release publishes but other bytes. The preflight can compare names only; once the files are
    /// built, before the tag, every asset's SHA256 is compared with the digests GitHub reports:
    /// exit 1 naming each differing asset, no tag here or on the remote, only GETs sent.
    @Test func aPublishedReleaseWithOtherBytesStopsTheReleaseBeforeTheTag() async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-build-ran-\(UUID())")
        defer { try? FileManager.default.removeItem(at: marker) }
        let fixture = try await TemporaryScope.blocking {
            try ReleaseFixture(buildCommand: "touch '\(marker.path)' && " + ReleaseFixture.standInBuild)
        }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        let names = Self.assetNames
        var assets: [String: Data] = [:]
        for name in names { assets[name] = Data("by hand: \(name)\n".utf8) }
        try await server.seed(tag: "v1.0.0", draft: false, assets: assets)
        for dry in [["--dry-run"], []] {
            let result = try await TemporaryScope.blocking {
                try relctl(
                    ["release", "v1.0.0", "--push", "--publish"] + dry, in: fixture.url,
                    environment: environment(server))
            }
            #expect(result.status == 1, "\(dry) \(result)")
            for name in names {
                #expect(result.stderr.contains("already published with another `\(name)`"), "\(dry) \(name): \(result)")
            }
            #expect(!result.stderr.contains("without asset"), "\(dry) \(result)")
        }
        #expect(FileManager.default.fileExists(atPath: marker.path), "the build ran: the bytes are known after it")
        #expect(try fixture.remoteTags().isEmpty)
        #expect(try fixture.repository.git("tag", "--list").isEmpty)
        let log = try await server.log()
        #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path)" })")
        #expect(try await server.releases().first?.assets.map(\.name).sorted() == names)
    }

    /// The same published release holding exactly this release's bytes passes the check before the
    /// tag: a dry run goes through every stage (the stand-in's seeded release carries a tag of its
    /// own, so a real run's publish stage would stop on the tag object, which is another check).
    @Test func aPublishedReleaseWithTheSameBytesPassesTheCheckBeforeTheTag() async throws {
        // The bytes a first release writes (same inputs, same bytes), published by it.
        let first = try await TemporaryScope.blocking { try ReleaseFixture() }
        let firstServer = try GitHubStandIn(tags: [], gitDirectory: first.remote.url)
        defer { firstServer.stop() }
        let published = try await TemporaryScope.blocking {
            try relctl(["release", "v1.0.0", "--push", "--publish"], in: first.url, environment: environment(firstServer))
        }
        #expect(published.status == 0, "\(published)")
        var assets: [String: Data] = [:]
        for name in Self.assetNames {
            assets[name] = try Data(contentsOf: first.url.appendingPathComponent("dist").appendingPathComponent(name))
        }
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture() }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        try await server.seed(tag: "v1.0.0", draft: false, assets: assets)
        let result = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--dry-run", "--push", "--publish"], in: fixture.url,
                environment: environment(server))
        }
        #expect(result.stderr.contains("is already published with these 6 assets (same SHA256)"), "\(result)")
        #expect(!result.stderr.contains("already published with another"), "\(result)")
        #expect(result.stderr.contains("tag: ok"), "\(result)")
        let log = try await server.log()
        #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path)" })")
    }

    static let assetNames = [
        "SHA256SUMS", "demo-v1.0.0-aarch64-unknown-linux-gnu.cdx.json", "demo-v1.0.0-aarch64-unknown-linux-gnu.tar.gz",
        "demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json", "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz", "manifest.json",
    ]

    @Test func publishIsTheLastStageOfARealRelease() async throws {
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture() }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        let result = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--push", "--publish", "--json"], in: fixture.url,
                environment: environment(server))
        }
        #expect(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        let publish = plan.stages.last { !["channel-publish", "repository-publish", "npm-publish", "pypi-publish"].contains($0.name) }
        #expect(publish?.name == "publish" && publish?.status == "ok", "\(plan.stages)")
        let release = try #require(try await server.releases().first)
        // Archives, SBOMs, SHA256SUMS and manifest.json.
        #expect(!release.draft && release.assets.count == 6 && release.assets.allSatisfy { $0.state == "uploaded" })
        let log = try await server.log()
        #expect(
            log.filter { $0.published == true }.first?.assets_at_publish?.count == 6, "public only with every asset")

        let usage = try await TemporaryScope.blocking {
            try relctl(["release", "v1.0.1", "--publish"], in: fixture.url, environment: environment(server))
        }
        #expect(usage.status == 64 && usage.stderr.contains("--publish needs --push"), "\(usage)")
    }
}
