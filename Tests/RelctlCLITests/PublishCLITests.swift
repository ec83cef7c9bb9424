import Foundation
import RelctlDistribution
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

/// `relctl publish` end to end against the GitHub stand-in (Tests/Support/github_standin.py).
/// Serialized: each test runs a server and the binary, and two check wall-clock waits.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct PublishCLITests {
    typealias Request = GitHubStandIn.Request

    /// Runs one test with a fresh project and stand-in, stopping both afterwards.
    private func withStandIn(
        prefix: String = "", maxPerPage: Int = 100, tag: String = "v1.0.0", pushed: Bool = true,
        _ body: (PublishFixture, GitHubStandIn) async throws -> Void
    ) async throws {
        let fixture = try await TemporaryScope.blocking { try PublishFixture(tag: tag) }
        let server = try GitHubStandIn(prefix: prefix, maxPerPage: maxPerPage, tags: pushed ? [tag] : [])
        defer {
            server.stop()
        }
        try await body(fixture, server)
    }

    /// Runs `relctl publish` on a thread of its own: a blocking wait on the cooperative pool
    /// (one thread per core) would starve the other suites' async tests.
    private func publish(
        _ arguments: [String], _ fixture: PublishFixture, _ server: GitHubStandIn, environment: [String: String]? = nil
    ) async throws -> RunResult {
        let environment = environment ?? server.environment(repository: nil)
        return try await TemporaryScope.blocking {
            try relctl(["publish"] + arguments, in: fixture.url, environment: environment)
        }
    }

    private func successfulUploads(_ log: [Request]) -> [String] {
        log.filter { $0.kind == "upload" && $0.status == 201 }.compactMap(\.name).sorted()
    }

    /// Every complete publication saw the whole asset set, uploaded and with the local digests.
    private func expectNeverVisibleIncomplete(_ log: [Request], _ fixture: PublishFixture) throws {
        let publications = log.filter { $0.published == true }
        #expect(publications.count == 1, "published exactly once: \(publications.count)")
        for publication in publications {
            let assets = publication.assets_at_publish ?? []
            #expect(assets.map(\.name).sorted() == (try fixture.expectedAssets()))
            for asset in assets {
                #expect(asset.state == "uploaded", "\(asset.name) was \(asset.state) when the release became public")
                #expect(asset.digest == (try fixture.digest(asset.name)))
            }
        }
    }

    /// A manifest.json that names no release (a CI merge's `relctl checksum` on an untagged commit,
    /// with archive names that spell no version) never goes up as the tag's: exit 2 naming it,
    /// before any request that writes (issue 40, item 9: it was published with an empty tag).
    @Test func aManifestNamingNoReleaseIsNeverPublished() async throws {
        try await withStandIn { fixture, server in
            let file = fixture.dist.appendingPathComponent("manifest.json")
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
            object["tag"] = ""
            object["version"] = ""
            object["commit"] = ""
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: file)
            let result = try await publish(["v1.0.0"], fixture, server)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("manifest.json") && result.stderr.contains("names no release"), "\(result)")
            let writes = try await server.log().filter { $0.method != "GET" }
            #expect(writes.isEmpty, "nothing was sent: \(writes)")
            #expect(try await server.releases().isEmpty)
        }
    }

    @Test func firstPublishAttachesEverythingThenARerunIsANoOp() async throws {
        try await withStandIn { fixture, server in
            let result = try await publish(["v1.0.0", "--json"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let report = try JSONDecoder().decode(PublishReport.self, from: Data(result.stdout.utf8))
            #expect(report.outcome == .published && report.created && report.repository == "acme/velostream")
            #expect(report.uploaded == (try fixture.expectedAssets()))
            #expect(report.latest == true && !report.prerelease)

            let releases = try await server.releases()
            #expect(releases.count == 1)
            let release = try #require(releases.first)
            #expect(
                !release.draft && !release.prerelease && release.tag_name == "v1.0.0" && release.make_latest == "true")
            #expect(release.body == PublishFixture.notes && release.name == "velostream v1.0.0")
            #expect(release.assets.map(\.name).sorted() == (try fixture.expectedAssets()))
            #expect(
                try fixture.expectedAssets().contains("manifest.json")
                    && (try fixture.expectedAssets()).contains("SHA256SUMS"))
            for asset in release.assets {
                let expected = try fixture.digest(asset.name)
                #expect(asset.state == "uploaded" && asset.digest == expected)
            }

            var log = try await server.log()
            // GitHub's headers on every request, and the token.
            for request in log {
                #expect(
                    request.user_agent?.hasPrefix("relctl/") == true && request.accept == "application/vnd.github+json")
                #expect(request.api_version == "2022-11-28" && request.authorized, "\(request.method) \(request.path)")
            }
            // A draft first; uploads to the upload_url path, not the API path.
            let create = try #require(log.first { $0.kind == "create" })
            #expect(create.status == 201)
            #expect(
                log.filter { $0.kind == "upload" }.allSatisfy {
                    $0.path.hasPrefix("/uploads/repos/acme/velostream/releases/")
                })
            #expect(successfulUploads(log) == (try fixture.expectedAssets()))
            try expectNeverVisibleIncomplete(log, fixture)

            // Again: nothing sent but reads, exit 0, "already published".
            let count = log.count
            let again = try await publish(["v1.0.0", "--json"], fixture, server)
            #expect(again.status == 0, "\(again)")
            #expect(again.stderr.contains("already published"), "\(again)")
            #expect(
                try JSONDecoder().decode(PublishReport.self, from: Data(again.stdout.utf8)).outcome == .alreadyPublished
            )
            log = try await server.log()
            #expect(
                log.dropFirst(count).allSatisfy { $0.method == "GET" },
                "\(log.dropFirst(count).map { "\($0.method) \($0.path)" })")
        }
    }

    @Test func aConnectionDroppedMidUploadIsFinishedWithoutUploadingTwice() async throws {
        try await withStandIn { fixture, server in
            // Every attempt at the Linux archive dies after 30 kB: the run fails, the release stays a draft.
            try await server.setFaults(
                #"[{"kind":"upload","name":"\#(ChecksumFixtures.linux)","action":"drop","after_bytes":30000,"times":100}]"#
            )
            let failed = try await publish(
                ["v1.0.0"], fixture, server,
                environment: server.environment(repository: nil).merging(["RELCTL_HTTP_RETRIES": "2"]) { $1 })
            #expect(failed.status == 1, "\(failed)")
            #expect(failed.stderr.contains(ChecksumFixtures.linux), "\(failed)")
            var releases = try await server.releases()
            #expect(releases.count == 1 && releases.first?.draft == true, "never public while incomplete")
            #expect(
                releases.first?.assets.contains { $0.name == ChecksumFixtures.linux && $0.state == "starter" } == true)

            // The network recovers; one drop more, healed within the run.
            try await server.setFaults(
                #"[{"kind":"upload","name":"\#(ChecksumFixtures.linux)","action":"drop","after_bytes":50000,"times":1}]"#
            )
            let result = try await publish(["v1.0.0"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let log = try await server.log()
            let uploads = successfulUploads(log)
            #expect(uploads == (try fixture.expectedAssets()), "each asset uploaded once: \(uploads)")
            #expect(log.filter { $0.kind == "create" }.count == 1, "the draft of the failed run was reused")
            #expect(
                log.contains { $0.method == "DELETE" && $0.name == ChecksumFixtures.linux },
                "the unfinished asset was deleted")
            try expectNeverVisibleIncomplete(log, fixture)
            releases = try await server.releases()
            let expectedCount = try fixture.expectedAssets().count
            #expect(releases.first?.draft == false && releases.first?.assets.count == expectedCount)
        }
    }

    @Test func aRunKilledMidUploadIsFinishedByTheNextOne() async throws {
        try await withStandIn { fixture, server in
            // Larger than loopback socket buffers, so the kill really cuts the body short.
            try ChecksumFixtures.bytes(24 << 20, seed: 9).write(
                to: fixture.dist.appendingPathComponent(ChecksumFixtures.linux))
            #expect(
                try await TemporaryScope.blocking { try relctl(["checksum", "dist"], in: fixture.url) }.status == 0)
            try await server.setFaults(
                #"[{"kind":"upload","name":"\#(ChecksumFixtures.linux)","action":"stall","after_bytes":20000,"seconds":600}]"#
            )
            let process = Process()
            process.executableURL = relctlBinary
            process.arguments = ["publish", "v1.0.0"]
            process.currentDirectoryURL = fixture.url
            process.environment = ProcessInfo.processInfo.environment.merging(server.environment(repository: nil)) {
                $1
            }
            process.standardError = FileHandle.nullDevice
            try process.run()
            // A deadline by the clock: on a busy machine the sleeps overrun, and the stall (600 s)
            // must still be on when the kill comes.
            var stalled = false
            let deadline = Date().addingTimeInterval(300)
            while !stalled && Date() < deadline {
                try await Task.sleep(for: .milliseconds(100))
                stalled = try await server.log().contains { $0.fault == "stall" }
            }
            #expect(stalled, "the upload reached the stall")
            kill(process.processIdentifier, SIGKILL)
            try await TemporaryScope.blocking { try process.waitForExit() }
            #expect(process.terminationReason == .uncaughtSignal)
            let draft = try #require(try await server.releases().first)
            #expect(
                draft.draft && draft.assets.contains { $0.name == ChecksumFixtures.linux && $0.state == "starter" },
                "\(draft.assets)")

            try await server.setFaults("[]")
            let result = try await publish(["v1.0.0", "--json"], fixture, server)
            #expect(result.status == 0, "\(result)")
            #expect(
                try JSONDecoder().decode(PublishReport.self, from: Data(result.stdout.utf8)).repaired == [
                    ChecksumFixtures.linux
                ])
            let log = try await server.log()
            #expect(successfulUploads(log) == (try fixture.expectedAssets()), "nothing uploaded twice")
            #expect(log.filter { $0.kind == "create" }.count == 1)
            try expectNeverVisibleIncomplete(log, fixture)
        }
    }

    @Test func rateLimitsAreWaitedOutBeforeAnyOtherRequest() async throws {
        try await withStandIn { fixture, server in
            try await server.setFaults(
                """
                [{"kind":"list","action":"retry_after","seconds":2,"times":1},
                 {"kind":"upload","action":"ratelimit","seconds":2,"times":1},
                 {"kind":"assets","action":"status","status":502,"times":1}]
                """)
            let result = try await publish(["v1.0.0"], fixture, server)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains("rate limited"), "\(result)")
            let log = try await server.log()
            let limited = try #require(log.firstIndex { $0.status == 429 })
            let after = log[(limited + 1)...]
            #expect(!after.isEmpty)
            for request in after {
                #expect(
                    request.time >= log[limited].time + 2,
                    "Retry-After: 2 honoured (\(request.time - log[limited].time)s)")
            }

            let forbidden = try #require(log.firstIndex { $0.status == 403 && $0.fault == "ratelimit" })
            let reset = try #require(log[forbidden].reset)
            for request in log[(forbidden + 1)...] { #expect(request.time >= reset, "x-ratelimit-reset honoured") }
            #expect(log.contains { $0.status == 502 }, "the 502 was retried")
            #expect(successfulUploads(log) == (try fixture.expectedAssets()))
            try expectNeverVisibleIncomplete(log, fixture)
        }
    }

    @Test func aDifferingAssetIsRefusedUnlessReplaceIsGiven() async throws {
        try await withStandIn { fixture, server in
            try await server.seed(
                tag: "v1.0.0", draft: true, assets: [ChecksumFixtures.linux: Data("other bytes".utf8)])
            let refused = try await publish(["v1.0.0"], fixture, server)
            #expect(refused.status == 1, "\(refused)")
            #expect(
                refused.stderr.contains("asset `\(ChecksumFixtures.linux)` is already there with a different SHA256"),
                "\(refused)")
            #expect(refused.stderr.contains("--replace"))
            var log = try await server.log()
            #expect(log.allSatisfy { $0.method == "GET" }, "nothing changed: \(log.map { "\($0.method) \($0.path)" })")

            let replaced = try await publish(["v1.0.0", "--replace", "--json"], fixture, server)
            #expect(replaced.status == 0, "\(replaced)")
            #expect(
                replaced.stderr.contains("warning:")
                    && replaced.stderr.contains("replacing `\(ChecksumFixtures.linux)`"), "\(replaced)")
            #expect(
                try JSONDecoder().decode(PublishReport.self, from: Data(replaced.stdout.utf8)).replaced == [
                    ChecksumFixtures.linux
                ])
            let release = try #require(try await server.releases().first)
            #expect(
                release.assets.first { $0.name == ChecksumFixtures.linux }?.digest
                    == (try fixture.digest(ChecksumFixtures.linux)))
            log = try await server.log()
            try expectNeverVisibleIncomplete(log, fixture)
        }
    }

    /// Issue 26, item 10: on a public release, `--replace` would delete before uploading, and a
    /// failed upload would leave the public release without a file its SHA256SUMS lists.
    @Test func replaceIsRefusedOnAPublicReleaseBeforeAnythingChanges() async throws {
        try await withStandIn { fixture, server in
            try await server.seed(
                tag: "v1.0.0", draft: false, assets: [ChecksumFixtures.linux: Data("other bytes".utf8)])
            let refused = try await publish(["v1.0.0", "--replace"], fixture, server)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("does not --replace on a public release"), "\(refused)")
            #expect(refused.stderr.contains(ChecksumFixtures.linux), "\(refused)")
            let log = try await server.log()
            #expect(log.allSatisfy { $0.method == "GET" }, "nothing changed: \(log.map { "\($0.method) \($0.path)" })")
            let release = try #require(try await server.releases().first)
            #expect(release.assets.map(\.name) == [ChecksumFixtures.linux])
        }
    }

    /// Issue 59: a release that is already published is compared, never written to. Lacking
    /// assets or holding another one: exit 1 naming each, and only GETs were sent (GitHub's
    /// immutable releases would answer 422; a mutable one would change under its users). The same
    /// assets: nothing to do.
    @Test func anAlreadyPublishedReleaseIsComparedAndNeverWrittenTo() async throws {
        try await withStandIn { fixture, server in
            try await server.seed(
                tag: "v1.0.0", draft: false, assets: [ChecksumFixtures.linux: Data("other bytes".utf8)])
            let refused = try await publish(["v1.0.0"], fixture, server)
            #expect(refused.status == 1, "\(refused)")
            for name in try fixture.expectedAssets() where name != ChecksumFixtures.linux {
                #expect(refused.stderr.contains("already published without asset `\(name)`"), "\(name): \(refused)")
            }
            #expect(refused.stderr.contains("already published with another `\(ChecksumFixtures.linux)`"), "\(refused)")
            let log = try await server.log()
            #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path) \($0.status)" })")
            #expect(log.allSatisfy { $0.to_published != true })
            #expect(try await server.releases().first?.assets.map(\.name) == [ChecksumFixtures.linux])
        }
        try await withStandIn { fixture, server in
            var assets: [String: Data] = [:]
            for name in try fixture.expectedAssets() {
                assets[name] = try Data(contentsOf: fixture.dist.appendingPathComponent(name))
            }
            try await server.seed(tag: "v1.0.0", draft: false, assets: assets)
            let same = try await publish(["v1.0.0", "--json"], fixture, server)
            #expect(same.status == 0 && same.stderr.contains("already published"), "\(same)")
            #expect(
                try JSONDecoder().decode(PublishReport.self, from: Data(same.stdout.utf8)).outcome == .alreadyPublished)
            #expect(try await server.log().allSatisfy { $0.method == "GET" })
        }
    }

    @Test func withoutATokenNothingIsSent() async throws {
        try await withStandIn { fixture, server in
            let result = try await publish(["v1.0.0"], fixture, server, environment: server.environment(token: nil))
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("GITHUB_TOKEN or GH_TOKEN"), "\(result)")
            #expect(try await server.log().isEmpty)
        }
    }

    @Test func aMissingListedFileIsRefusedBeforeAnyRequest() async throws {
        try await withStandIn { fixture, server in
            try FileManager.default.removeItem(at: fixture.dist.appendingPathComponent(ChecksumFixtures.windows))
            let result = try await publish(["v1.0.0"], fixture, server)
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("dist/SHA256SUMS: lists `\(ChecksumFixtures.windows)`"), "\(result)")
            // A changed file is refused too (exit 1), also before any request.
            try Data("tampered".utf8).write(to: fixture.dist.appendingPathComponent(ChecksumFixtures.windows))
            let changed = try await publish(["v1.0.0"], fixture, server)
            #expect(changed.status == 1 && changed.stderr.contains("no longer has the SHA256"), "\(changed)")
            #expect(try await server.log().isEmpty)
        }
    }

    @Test func aPrereleaseIsFlaggedAndNeverMadeLatest() async throws {
        try await withStandIn(tag: "v1.1.0-rc.1") { fixture, server in
            try await server.seed(tag: "v1.0.0", draft: false)
            let result = try await publish(["v1.1.0-rc.1"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let release = try #require(try await server.releases().first { $0.tag_name == "v1.1.0-rc.1" })
            #expect(release.prerelease && !release.draft && release.make_latest == "false")
        }
    }

    @Test func anOlderFinalVersionIsNotMadeLatest() async throws {
        try await withStandIn(tag: "v0.9.1") { fixture, server in
            try await server.seed(tag: "v1.0.0", draft: false)
            let result = try await publish(["v0.9.1"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let release = try #require(try await server.releases().first { $0.tag_name == "v0.9.1" })
            #expect(!release.prerelease && release.make_latest == "false")
        }
    }

    @Test func enterpriseServerPaginationAndTheOldestOfSeveralDrafts() async throws {
        // GHES: API under /api/v3, uploads under /api/uploads; two releases per page.
        try await withStandIn(prefix: "/api/v3", maxPerPage: 2) { fixture, server in
            try await server.seed(tag: "v1.0.0", draft: true)  // id 1: the oldest, listed last
            try await server.seed(tag: "v1.0.0", draft: true)  // id 2
            for minor in 1...4 { try await server.seed(tag: "v0.\(minor).0", draft: false) }
            let result = try await publish(["v1.0.0", "--json"], fixture, server, environment: server.environment())
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains("2 drafts exist for v1.0.0 (ids 1, 2); using the oldest, 1"), "\(result)")
            let report = try JSONDecoder().decode(PublishReport.self, from: Data(result.stdout.utf8))
            #expect(report.releaseID == 1 && !report.created && report.latest == true)
            let log = try await server.log()
            #expect(log.filter { $0.kind == "list" }.count >= 3, "every page read")
            #expect(!log.contains { $0.kind == "create" })
            #expect(log.filter { $0.kind == "upload" }.allSatisfy { $0.path.hasPrefix("/api/uploads/repos/") })
            #expect(log.allSatisfy { $0.path.hasPrefix("/api/") })
        }
    }

    @Test func aTagNotOnGitHubIsRefusedBeforeAnyWrite() async throws {
        try await withStandIn(pushed: false) { fixture, server in
            let result = try await publish(["v1.0.0"], fixture, server)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("tag v1.0.0 is not in acme/velostream; push it first"), "\(result)")
            #expect(try await server.log().allSatisfy { $0.method == "GET" })
            #expect(try await server.releases().isEmpty)
        }
    }

    @Test func aTagThatDiffersFromTheLocalOneIsRefused() async throws {
        try await withStandIn { fixture, server in
            // The local tag is a real one; the stand-in's v1.0.0 points elsewhere.
            try fixture.repository.git("tag", "-a", "v1.0.0", "-m", "v1.0.0")
            let result = try await publish(["v1.0.0"], fixture, server)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("tag v1.0.0 in acme/velostream is object"), "\(result)")
            #expect(try await server.releases().isEmpty)

            let local = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0")
            let matching = try GitHubStandIn(tags: ["v1.0.0=\(local)"])
            defer { matching.stop() }
            let published = try await publish(["v1.0.0"], fixture, matching)
            #expect(published.status == 0, "\(published)")
        }
    }

    @Test func apiErrorsCarryGitHubsMessageAndDocumentation() async throws {
        try await withStandIn { fixture, server in
            let result = try await publish(
                ["v1.0.0"], fixture, server, environment: server.environment(token: "ghp_wrong", repository: nil))
            #expect(result.status == 1, "\(result)")
            #expect(
                result.stderr.contains(
                    "HTTP 401: Bad credentials (check GITHUB_TOKEN / GH_TOKEN) — see https://docs.github.com/"),
                "\(result)")
            #expect(try await server.log().count == 1, "a 401 is not retried")
        }
    }

    @Test func aTerminalShowsEachUploadsProgress() async throws {
        try await withStandIn { fixture, server in
            // `script` gives relctl a pseudo-terminal for stderr, as an interactive shell would.
            let environment = server.environment(repository: nil).merging(["NO_COLOR": "1"]) { $1 }
            let result = try await TemporaryScope.blocking {
                try run(
                    "script", ["-qec", "\(relctlBinary.path) publish v1.0.0", "/dev/null"], in: fixture.url,
                    environment: environment)
            }
            #expect(result.status == 0, "\(result)")
            for name in try fixture.expectedAssets() {
                #expect(
                    result.stdout.contains("\r\u{1B}[K  \(name)  "),
                    "a progress line for \(name): \(result.stdout.debugDescription)")
            }
            #expect(result.stdout.contains("% of 97.7 KiB"), "\(result.stdout.debugDescription)")
        }
    }

    /// The stand-in is only worth its tests if it refuses what GitHub refuses.
    @Test func theStandInIsStrictWhereGitHubIs() async throws {
        let server = try GitHubStandIn()
        defer { server.stop() }
        let auth = ["Authorization": "Bearer \(GitHubStandIn.token)", "User-Agent": "test"]
        let releases = "/repos/acme/velostream/releases"
        #expect(try await server.send("GET", releases, headers: ["User-Agent": "test"]).0 == 401)
        #expect(
            try await server.send("GET", releases, headers: ["Authorization": "Bearer nope", "User-Agent": "test"]).1
                .contains("Bad credentials"))
        // An empty User-Agent is no User-Agent.
        #expect(
            try await server.send(
                "GET", releases, headers: ["Authorization": "Bearer \(GitHubStandIn.token)", "User-Agent": ""]
            ).0 == 403)
        #expect(try await server.send("GET", "/repos/acme/other/releases", headers: auth).0 == 404)

        let draft = try await server.send("POST", releases, headers: auth, body: #"{"tag_name":"v1.0.0","draft":true}"#)
        #expect(
            draft.0 == 201
                && draft.1.contains(
                    #""upload_url": "http://127.0.0.1:\#(server.port)/uploads/repos/acme/velostream/releases/1/assets{?name,label}""#
                ), "\(draft)")
        #expect(
            try await server.send("GET", releases + "/tags/v1.0.0", headers: auth).0 == 404,
            "drafts are invisible by tag")
        #expect(
            try await server.send("POST", releases, headers: auth, body: #"{"tag_name":"v1.0.0","draft":true}"#).0
                == 201, "several drafts per tag")
        #expect(try await server.send("PATCH", releases + "/1", headers: auth, body: #"{"draft":false}"#).0 == 200)
        #expect(try await server.send("GET", releases + "/tags/v1.0.0", headers: auth).0 == 200)
        let duplicate = try await server.send("POST", releases, headers: auth, body: #"{"tag_name":"v1.0.0"}"#)
        #expect(duplicate.0 == 422 && duplicate.1.contains("already_exists"), "\(duplicate)")
        #expect(
            try await server.send("PATCH", releases + "/2", headers: auth, body: #"{"draft":false}"#).1.contains(
                "already_exists"))
        #expect(
            try await server.send("PATCH", releases + "/1", headers: auth, body: #"{"make_latest":true}"#).0 == 422,
            "make_latest is a string")

        // Release 1 is published, and published releases are immutable: no asset goes up there.
        let immutable = try await server.send(
            "POST", "/uploads/repos/acme/velostream/releases/1/assets?name=a.txt",
            headers: auth.merging(["Content-Type": "text/plain"]) { $1 }, body: "hello\n")
        #expect(
            immutable.0 == 422 && immutable.1.contains("Cannot upload assets to an immutable release"), "\(immutable)")
        let upload = "/uploads/repos/acme/velostream/releases/2/assets?name=a.txt"
        let first = try await server.send(
            "POST", upload, headers: auth.merging(["Content-Type": "text/plain"]) { $1 }, body: "hello\n")
        #expect(
            first.0 == 201
                && first.1.contains(
                    #""digest": "sha256:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03""#),
            "\(first)")
        #expect(first.1.contains(#""state": "uploaded""#))
        let again = try await server.send(
            "POST", upload, headers: auth.merging(["Content-Type": "text/plain"]) { $1 }, body: "hello\n")
        #expect(again.0 == 422 && again.1.contains("already_exists"))
    }

    @Test func aDraftIsLeftCompleteAndInvisibleWithDraft() async throws {
        try await withStandIn { fixture, server in
            let result = try await publish(["v1.0.0", "--draft"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let release = try #require(try await server.releases().first)
            let expectedCount = try fixture.expectedAssets().count
            #expect(release.draft && release.assets.count == expectedCount)
            #expect(!(try await server.log()).contains { $0.kind == "patch" })
        }
    }
}
