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

/// `relctl publish --forge gitlab|gitea` end to end against the strict stand-ins
/// (Tests/Support/gitlab_standin.py, gitea_standin.py): the round-2 promises on each forge.
/// Serialized: each test runs a server and the binary, and some check wall-clock waits.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ForgePublishCLITests {
    typealias Forge = ForgeStandIn.Forge
    typealias Request = ForgeStandIn.Request

    /// A fresh project (dist/ ready, `[publish]` naming the stand-in's project) and stand-in.
    func withStandIn(
        _ forge: Forge, size: Int = 100_000, _ body: (PublishFixture, ForgeStandIn) async throws -> Void
    ) async throws {
        let fixture = try await TemporaryScope.blocking { try PublishFixture(size: size) }
        let server = try ForgeStandIn(forge)
        defer {
            server.stop()
        }
        try fixture.repository.directory.write(
            "relctl.toml", "[project]\nname = \"velostream\"\n\n[publish]\n\(server.configLine)\n")
        try await body(fixture, server)
    }

    func publish(
        _ arguments: [String], _ fixture: PublishFixture, _ server: ForgeStandIn, environment: [String: String]? = nil
    ) async throws -> RunResult {
        let environment = environment ?? server.environment()
        return try await TemporaryScope.blocking {
            try relctl(["publish"] + arguments, in: fixture.url, environment: environment)
        }
    }

    /// The forge's view of the release: each asset name with the SHA256 a download serves, and
    /// whether the release is public.
    func published(_ server: ForgeStandIn) async throws -> (assets: [String: String], visible: Bool) {
        let state = try await server.state()
        switch server.forge {
        case .gitea:
            let releases = state as? [[String: Any]] ?? []
            guard let release = releases.first else { return ([:], false) }
            var assets: [String: String] = [:]
            for asset in release["assets"] as? [[String: Any]] ?? [] {
                #expect(assets[asset["name"] as? String ?? ""] == nil, "one attachment per name: \(asset)")
                assets[asset["name"] as? String ?? ""] = asset["sha256"] as? String
            }
            return (assets, !(release["draft"] as? Bool ?? true))
        case .gitlab:
            let object = state as? [String: Any] ?? [:]
            var newest: [String: (Int, String)] = [:]
            for package in object["packages"] as? [[String: Any]] ?? [] {
                for file in package["files"] as? [[String: Any]] ?? [] {
                    let name = file["file_name"] as? String ?? ""
                    let id = file["id"] as? Int ?? 0
                    if (newest[name]?.0 ?? -1) < id { newest[name] = (id, file["file_sha256"] as? String ?? "") }
                }
            }
            let releases = object["releases"] as? [[String: Any]] ?? []
            guard let release = releases.first else { return (newest.mapValues(\.1), false) }
            let links = ((release["assets"] as? [String: Any])?["links"] as? [[String: Any]] ?? []).compactMap {
                $0["name"] as? String
            }
            #expect(Set(links).count == links.count, "one link per asset: \(links)")
            // Only what a link leads to counts as published.
            return (newest.filter { links.contains($0.key) }.mapValues(\.1), true)
        }
    }

    /// The release is public with exactly the local asset set, each with the local SHA256.
    func expectExactlyPublished(
        _ server: ForgeStandIn, _ fixture: PublishFixture, _ what: String = ""
    ) async throws {
        let (assets, visible) = try await published(server)
        #expect(visible, "\(what): the release is public")
        let expected = try fixture.expectedAssets()
        #expect(assets.keys.sorted() == expected, "\(what): \(assets.keys.sorted())")
        for name in expected {
            #expect("sha256:" + (assets[name] ?? "") == (try fixture.digest(name)), "\(what): \(name)")
        }
    }

    /// The release became visible once, and at that moment every asset was there with its bytes.
    func expectNeverVisibleIncomplete(_ log: [Request], _ fixture: PublishFixture, _ what: String = "") throws {
        let publications = log.filter { $0.published == true || $0.created == true }
        #expect(publications.count <= 1, "\(what): made public \(publications.count) times")
        for publication in publications {
            let assets = publication.assets_at_publish ?? []
            #expect(assets.map(\.name).sorted() == (try fixture.expectedAssets()), "\(what)")
            for asset in assets {
                #expect("sha256:" + (asset.sha256 ?? "") == (try fixture.digest(asset.name)), "\(what): \(asset.name)")
            }
        }
    }

    @Test(arguments: [Forge.gitlab, .gitea])
    func aFirstPublishThenARerunThatChangesNothing(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let result = try await publish(["v1.0.0", "--forge", forge.rawValue, "--json"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let report = try JSONDecoder().decode(PublishReport.self, from: Data(result.stdout.utf8))
            #expect(report.publisher == forge.rawValue && report.outcome == .published)
            #expect(report.uploaded == (try fixture.expectedAssets()))
            try await expectExactlyPublished(server, fixture)
            var log = try await server.log()
            try expectNeverVisibleIncomplete(log, fixture)
            // Every upload, then the one request that makes the release visible.
            let create = try #require(log.lastIndex { $0.kind == (forge == .gitlab ? "create" : "patch") })
            let uploads = log.indices.filter { log[$0].kind == "upload" }
            #expect(uploads.count == (try fixture.expectedAssets()).count && uploads.allSatisfy { $0 < create })
            let header = forge == .gitlab ? "PRIVATE-TOKEN" : "Authorization"
            for request in log {
                #expect(request.user_agent?.hasPrefix("relctl/") == true, "\(request.method) \(request.path)")
                #expect(request.authorized && request.secrets == [header], "\(request.method) \(request.path)")
            }
            #expect(!result.stderr.contains(forge == .gitlab ? ForgeStandIn.gitlabToken : ForgeStandIn.giteaToken))

            let count = log.count
            let again = try await publish(["v1.0.0", "--forge", forge.rawValue, "--json"], fixture, server)
            #expect(again.status == 0, "\(again)")
            #expect(again.stderr.contains("already published"), "\(again)")
            #expect(
                try JSONDecoder().decode(PublishReport.self, from: Data(again.stdout.utf8)).outcome == .alreadyPublished
            )
            log = try await server.log()
            let writes = log.dropFirst(count).filter { $0.method != "GET" }
            #expect(writes.isEmpty, "\(writes.map { "\($0.method) \($0.path)" })")
        }
    }

    @Test(arguments: [Forge.gitlab, .gitea])
    func aRunKilledMidUploadIsFinishedByTheNextOne(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
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
            process.arguments = ["publish", "v1.0.0", "--forge", forge.rawValue]
            process.currentDirectoryURL = fixture.url
            process.environment = ProcessInfo.processInfo.environment.merging(server.environment()) { $1 }
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
            #expect(try await published(server).visible == false, "nothing public after the kill")

            try await server.setFaults("[]")
            let result = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(result.status == 0, "\(result)")
            try await expectExactlyPublished(server, fixture)
            try expectNeverVisibleIncomplete(try await server.log(), fixture)
        }
    }

    @Test(arguments: [Forge.gitlab, .gitea])
    func aDifferingAssetStopsTheRunWithNothingReplaced(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let other = Data("other bytes".utf8).base64EncodedString()
            switch forge {
            case .gitlab:
                try await server.seed(
                    #"{"package":"velostream","version":"1.0.0","file":"\#(ChecksumFixtures.linux)","data":"\#(other)"}"#
                )
            case .gitea:
                try await server.seed(
                    #"{"tag_name":"v1.0.0","draft":true,"assets":[{"name":"\#(ChecksumFixtures.linux)","data":"\#(other)"}]}"#
                )
            }
            let before = try JSONSerialization.data(withJSONObject: try await server.state(), options: .sortedKeys)
            let refused = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.stderr.contains("`\(ChecksumFixtures.linux)`"), "\(refused)")
            #expect(refused.stderr.contains("different SHA256"), "\(refused)")
            let log = try await server.log()
            #expect(log.allSatisfy { $0.method == "GET" }, "nothing changed: \(log.map { "\($0.method) \($0.path)" })")
            let after = try JSONSerialization.data(withJSONObject: try await server.state(), options: .sortedKeys)
            #expect(before == after)
        }
    }

    /// Issue 59: a release already published (a GitLab release is public once it exists) is
    /// compared, never written to: lacking assets or holding another one is exit 1 naming each,
    /// with only GETs sent and the forge's state as it was.
    @Test(arguments: [Forge.gitlab, .gitea])
    func anAlreadyPublishedReleaseIsComparedAndNeverWrittenTo(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let other = Data("other bytes".utf8).base64EncodedString()
            switch forge {
            case .gitlab:
                try await server.seed(#"{"tag_name":"v1.0.0"}"#)
            case .gitea:
                try await server.seed(
                    #"{"tag_name":"v1.0.0","draft":false,"assets":[{"name":"\#(ChecksumFixtures.linux)","data":"\#(other)"}]}"#
                )
            }
            let before = try JSONSerialization.data(withJSONObject: try await server.state(), options: .sortedKeys)
            let refused = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(refused.status == 1, "\(refused)")
            for name in try fixture.expectedAssets() where forge == .gitlab || name != ChecksumFixtures.linux {
                #expect(refused.stderr.contains("already published without asset `\(name)`"), "\(name): \(refused)")
            }
            if forge == .gitea {
                #expect(refused.stderr.contains("already published with another `\(ChecksumFixtures.linux)`"))
            }
            let log = try await server.log()
            #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path)" })")
            let after = try JSONSerialization.data(withJSONObject: try await server.state(), options: .sortedKeys)
            #expect(before == after)
        }
    }

    /// Issue 59: `release --push --publish` asks the forge before the build; a published release
    /// without this release's archives stops it there (the build's marker is never written, no tag).
    @Test(arguments: [Forge.gitlab, .gitea])
    func aPublishedReleaseLackingAssetsStopsTheReleaseBeforeTheBuild(forge: Forge) async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-build-ran-\(UUID())")
        defer { try? FileManager.default.removeItem(at: marker) }
        let line =
            forge == .gitlab
            ? "gitlab = \"\(ForgeStandIn.gitlabProject)\"" : "gitea = \"\(ForgeStandIn.giteaRepository)\""
        let fixture = try await TemporaryScope.blocking {
            try ReleaseFixture(
                buildCommand: "touch '\(marker.path)' && " + ReleaseFixture.standInBuild,
                release: "\n[publish]\n\(line)\n")
        }
        let server = try ForgeStandIn(forge, tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        try await server.seed(
            forge == .gitlab ? #"{"tag_name":"v1.0.0"}"# : #"{"tag_name":"v1.0.0","draft":false,"assets":[]}"#)
        let result = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--push", "--publish"], in: fixture.url, environment: server.environment())
        }
        #expect(result.status == 1, "\(result)")
        for triple in ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"] {
            #expect(
                result.stderr.contains("already published without asset `demo-v1.0.0-\(triple).tar.gz`"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the build ran")
        #expect(try fixture.remoteTags().isEmpty)
        #expect(try fixture.repository.git("tag", "--list").isEmpty)
        let log = try await server.log()
        #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path)" })")
    }

    /// Issue 59's leftover on Gitea and GitLab: a published release holding every name this release
    /// publishes with other bytes. After the build and before the tag, every asset is compared with
    /// the forge's files: exit 1 naming each, the build ran, no tag, only GETs, the forge unchanged.
    @Test(arguments: [Forge.gitlab, .gitea])
    func aPublishedReleaseWithOtherBytesStopsTheReleaseBeforeTheTag(forge: Forge) async throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent("relctl-build-ran-\(UUID())")
        defer { try? FileManager.default.removeItem(at: marker) }
        let line =
            forge == .gitlab
            ? "gitlab = \"\(ForgeStandIn.gitlabProject)\"" : "gitea = \"\(ForgeStandIn.giteaRepository)\""
        let fixture = try await TemporaryScope.blocking {
            try ReleaseFixture(
                buildCommand: "touch '\(marker.path)' && " + ReleaseFixture.standInBuild,
                release: "\n[publish]\n\(line)\n")
        }
        let server = try ForgeStandIn(forge, tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        let names = ReleasePublishCLITests.assetNames
        let data = { (name: String) in Data("by hand: \(name)\n".utf8).base64EncodedString() }
        switch forge {
        case .gitlab:
            let base = server.apiURL + "/projects/" + GitLabAPI.segment(ForgeStandIn.gitlabProject)
            for name in names {
                try await server.seed(#"{"package":"demo","version":"1.0.0","file":"\#(name)","data":"\#(data(name))"}"#)
            }
            let links = names.map {
                #"{"name":"\#($0)","url":"\#(base)/packages/generic/demo/1.0.0/\#($0)","link_type":"package"}"#
            }
            try await server.seed(#"{"tag_name":"v1.0.0","links":[\#(links.joined(separator: ","))]}"#)
        case .gitea:
            let assets = names.map { #"{"name":"\#($0)","data":"\#(data($0))"}"# }
            try await server.seed(#"{"tag_name":"v1.0.0","draft":false,"assets":[\#(assets.joined(separator: ","))]}"#)
        }
        let before = try JSONSerialization.data(withJSONObject: try await server.state(), options: .sortedKeys)
        let result = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--push", "--publish"], in: fixture.url, environment: server.environment())
        }
        #expect(result.status == 1, "\(result)")
        for name in names {
            #expect(result.stderr.contains("already published with another `\(name)`"), "\(name): \(result)")
        }
        #expect(FileManager.default.fileExists(atPath: marker.path), "the build ran: the bytes are known after it")
        #expect(try fixture.remoteTags().isEmpty)
        #expect(try fixture.repository.git("tag", "--list").isEmpty)
        let log = try await server.log()
        #expect(log.allSatisfy { $0.method == "GET" }, "\(log.map { "\($0.method) \($0.path)" })")
        let after = try JSONSerialization.data(withJSONObject: try await server.state(), options: .sortedKeys)
        #expect(before == after)
    }

    /// GitLab keeps every upload of a name as its own package file and serves the newest: an older
    /// copy with other bytes does not matter, a newest copy with other bytes stops the run.
    @Test func gitLabComparesTheNewestOfDuplicatePackageFiles() async throws {
        try await withStandIn(.gitlab) { fixture, server in
            let name = ChecksumFixtures.linux
            let other = Data("other bytes".utf8).base64EncodedString()
            let ours = try Data(contentsOf: fixture.dist.appendingPathComponent(name)).base64EncodedString()
            try await server.seed(#"{"package":"velostream","version":"1.0.0","file":"\#(name)","data":"\#(other)"}"#)
            try await server.seed(#"{"package":"velostream","version":"1.0.0","file":"\#(name)","data":"\#(ours)"}"#)
            let result = try await publish(["v1.0.0", "--forge", "gitlab", "--json"], fixture, server)
            #expect(result.status == 0, "\(result)")
            let report = try JSONDecoder().decode(PublishReport.self, from: Data(result.stdout.utf8))
            #expect(!report.uploaded.contains(name) && report.unchanged.contains(name), "the newest copy is ours")
            try await expectExactlyPublished(server, fixture)

            // Someone uploads other bytes under the name afterwards: they are what downloads serve now.
            try await server.seed(#"{"package":"velostream","version":"1.0.0","file":"\#(name)","data":"\#(other)"}"#)
            let refused = try await publish(["v1.0.0", "--forge", "gitlab"], fixture, server)
            // The release exists, so it is public: compared, never written to (issue 59).
            #expect(
                refused.status == 1 && refused.stderr.contains("already published with another `\(name)`"),
                "\(refused)")
        }
    }

    /// Gitea keeps one release per tag, but an older server or an import can hold several drafts:
    /// the oldest is used, as on GitHub, and the others are named.
    @Test func giteaUsesTheOldestOfSeveralDrafts() async throws {
        try await withStandIn(.gitea) { fixture, server in
            try await server.seed(#"{"tag_name":"v1.0.0","draft":true}"#)
            try await server.seed(#"{"tag_name":"v1.0.0","draft":true}"#)
            let result = try await publish(["v1.0.0", "--forge", "gitea", "--json"], fixture, server)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.contains("2 drafts exist for v1.0.0 (ids 1, 2); using the oldest, 1"), "\(result)")
            let report = try JSONDecoder().decode(PublishReport.self, from: Data(result.stdout.utf8))
            #expect(report.releaseID == 1 && !report.created)
            #expect(!(try await server.log()).contains { $0.kind == "create" })
        }
    }

    @Test(arguments: [Forge.gitlab, .gitea])
    func withoutATokenNothingIsSent(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let result = try await publish(
                ["v1.0.0", "--forge", forge.rawValue], fixture, server, environment: server.environment(token: ""))
            #expect(result.status == 2, "\(result)")
            #expect(
                result.stderr.contains(forge == .gitlab ? "GITLAB_TOKEN or CI_JOB_TOKEN" : "GITEA_TOKEN"), "\(result)")
            #expect(try await server.log().isEmpty)
        }
    }

    /// A server whose error page echoes the request's headers: the token is masked in what relctl prints.
    @Test(arguments: [Forge.gitlab, .gitea])
    func anErrorBodyEchoingTheTokenIsPrintedMasked(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            try await server.setFaults(#"[{"action":"reflect","status":422,"at":0}]"#)
            let result = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(result.status == 1, "\(result)")
            #expect(result.stderr.contains("rejected request with headers"), "\(result)")
            let token = forge == .gitlab ? ForgeStandIn.gitlabToken : ForgeStandIn.giteaToken
            #expect(!result.stderr.contains(token) && !result.stdout.contains(token), "\(result)")
            #expect(result.stderr.contains("***"), "\(result)")
        }
    }

    /// The API redirects (307) to another origin: the token stays behind.
    @Test(arguments: [Forge.gitlab, .gitea])
    func theTokenIsNeverSentToAnotherOrigin(forge: Forge) async throws {
        try await withStandIn(forge) { fixture, server in
            let elsewhere = try ForgeStandIn(forge)
            defer { elsewhere.stop() }
            try await server.setFaults(#"[{"action":"redirect","to":"\#(elsewhere.origin)","times":100}]"#)
            let result = try await publish(["v1.0.0", "--forge", forge.rawValue], fixture, server)
            #expect(result.status == 1, "\(result)")
            let there = try await elsewhere.log()
            #expect(!there.isEmpty, "the redirect was followed")
            for request in there {
                #expect(request.secrets.isEmpty, "\(request.method) \(request.path): \(request.secrets)")
            }
            #expect(try await server.log().allSatisfy { $0.authorized })
        }
    }
}

/// The stand-ins read back by independent clients (pyforgejo for Forgejo's API, python-gitlab for
/// GitLab's): what relctl published is what those clients see, downloaded bytes included. And
/// several forges in one `relctl publish`, in the contract's order.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct ForgeReadBackCLITests {
    /// Runs a Python snippet with the stand-in's address and token; its stdout is JSON.
    private func python(_ script: String, _ server: ForgeStandIn, token: String) throws -> RunResult {
        try run("python3", ["-c", script, server.origin, token])
    }

    @Test func pyforgejoSeesTheGiteaReleaseRelctlPublished() async throws {
        let fixture = try await TemporaryScope.blocking { try PublishFixture() }
        let server = try ForgeStandIn(.gitea)
        defer { server.stop() }
        try fixture.repository.directory.write(
            "relctl.toml", "[project]\nname = \"velostream\"\n\n[publish]\n\(server.configLine)\n")
        let result = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0"], in: fixture.url, environment: server.environment())
        }
        #expect(result.status == 0, "\(result)")
        let script = """
            import hashlib, json, sys, httpx
            from pyforgejo import PyforgejoApi
            origin, token = sys.argv[1], sys.argv[2]
            client = PyforgejoApi(base_url=origin + "/api/v1", api_key=token)
            releases = client.repository.repo_list_releases("acme", "velostream")
            release = client.repository.repo_get_release(owner="acme", repo="velostream", id=releases[0].id)
            files = client.repository.repo_list_release_attachments("acme", "velostream", release.id)
            digests = {f.name: hashlib.sha256(httpx.get(f.browser_download_url).content).hexdigest() for f in files}
            print(json.dumps({"tag": release.tag_name, "draft": release.draft, "title": release.name,
                              "body": release.body, "count": len(releases), "digests": digests}))
            """
        let read = try python(script, server, token: ForgeStandIn.giteaToken)
        #expect(read.status == 0, "\(read)")
        struct Seen: Decodable {
            var tag: String, draft: Bool, title: String, body: String, count: Int, digests: [String: String]
        }
        let seen = try JSONDecoder().decode(Seen.self, from: Data(read.stdout.utf8))
        #expect(seen.tag == "v1.0.0" && !seen.draft && seen.count == 1 && seen.title == "velostream v1.0.0")
        #expect(seen.body == PublishFixture.notes)
        #expect(seen.digests.keys.sorted() == (try fixture.expectedAssets()))
        for (name, digest) in seen.digests { #expect("sha256:" + digest == (try fixture.digest(name)), "\(name)") }
    }

    @Test func pythonGitlabSeesTheGitLabReleaseRelctlPublished() async throws {
        let fixture = try await TemporaryScope.blocking { try PublishFixture() }
        let server = try ForgeStandIn(.gitlab)
        defer { server.stop() }
        try fixture.repository.directory.write(
            "relctl.toml", "[project]\nname = \"velostream\"\n\n[publish]\n\(server.configLine)\n")
        // A CI job's token, as GitLab CI gives it.
        let result = try await TemporaryScope.blocking {
            try relctl(
                ["publish", "v1.0.0"], in: fixture.url,
                environment: server.environment(token: "", jobToken: ForgeStandIn.jobToken))
        }
        #expect(result.status == 0, "\(result)")
        let sent = try await server.log()
        #expect(
            !sent.isEmpty && sent.allSatisfy { $0.secrets == ["JOB-TOKEN"] && $0.authorized },
            "the job token, as JOB-TOKEN")
        let script = """
            import hashlib, json, sys, gitlab
            origin, token = sys.argv[1], sys.argv[2]
            gl = gitlab.Gitlab(origin, private_token=token)
            project = gl.projects.get("acme/tools/velostream", lazy=True)
            release = project.releases.get("v1.0.0")
            links = release.links.list(get_all=True)
            packages = [p for p in project.packages.list(package_type="generic", get_all=True) if p.name == "velostream"]
            files = packages[0].package_files.list(get_all=True)
            digests = {f.file_name: f.file_sha256 for f in files}
            downloads = {l.name: hashlib.sha256(project.generic_packages.download(
                package_name="velostream", package_version="1.0.0", file_name=l.name)).hexdigest() for l in links}
            print(json.dumps({"name": release.name, "description": release.description,
                              "links": {l.name: [l.link_type, l.direct_asset_url] for l in links},
                              "version": packages[0].version, "digests": digests, "downloads": downloads}))
            """
        let read = try python(script, server, token: ForgeStandIn.gitlabToken)
        #expect(read.status == 0, "\(read)")
        struct Seen: Decodable {
            var name: String, description: String, links: [String: [String]], version: String
            var digests: [String: String], downloads: [String: String]
        }
        let seen = try JSONDecoder().decode(Seen.self, from: Data(read.stdout.utf8))
        let expected = try fixture.expectedAssets()
        #expect(seen.name == "velostream v1.0.0" && seen.description == PublishFixture.notes && seen.version == "1.0.0")
        #expect(seen.links.keys.sorted() == expected && seen.digests.keys.sorted() == expected)
        for name in expected {
            #expect("sha256:" + (seen.downloads[name] ?? "") == (try fixture.digest(name)), "\(name)")
            #expect(
                seen.links[name]?.first == (name.hasSuffix(".tar.gz") || name.hasSuffix(".zip") ? "package" : "other"))
            #expect(seen.links[name]?.last?.hasSuffix("/-/releases/v1.0.0/downloads/\(name)") == true)
        }
    }

    @Test func everyConfiguredForgeInOrderThenOneWithForge() async throws {
        let fixture = try await TemporaryScope.blocking { try PublishFixture() }
        let gitlab = try ForgeStandIn(.gitlab)
        let gitea = try ForgeStandIn(.gitea)
        defer { gitlab.stop(); gitea.stop() }
        try fixture.repository.directory.write(
            "relctl.toml", "[project]\nname = \"velostream\"\n\n[publish]\n\(gitea.configLine)\n\(gitlab.configLine)\n")
        let environment = gitlab.environment().merging(gitea.environment().filter { !$0.value.isEmpty }) { $1 }
        // Gitea's token missing: refused before anything is sent to either forge.
        let missing = try await TemporaryScope.blocking {
            try relctl(
                ["publish", "v1.0.0"], in: fixture.url, environment: environment.merging(["GITEA_TOKEN": ""]) { $1 })
        }
        #expect(missing.status == 2 && missing.stderr.contains("GITEA_TOKEN"), "\(missing)")
        let sentToGitLab = try await gitlab.log()
        let sentToGitea = try await gitea.log()
        #expect(sentToGitLab.isEmpty && sentToGitea.isEmpty)

        let both = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0", "--json"], in: fixture.url, environment: environment)
        }
        #expect(both.status == 0, "\(both)")
        let reports = try JSONDecoder().decode([PublishReport].self, from: Data(both.stdout.utf8))
        #expect(reports.map(\.publisher) == ["gitlab", "gitea"] && reports.allSatisfy { $0.outcome == .published })
        let firstGitea = try #require(try await gitea.log().first).time
        #expect(try await gitlab.log().allSatisfy { $0.time < firstGitea }, "GitLab first, then Gitea")

        let one = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0", "--forge", "gitea", "--json"], in: fixture.url, environment: environment)
        }
        #expect(one.status == 0, "\(one)")
        #expect(try JSONDecoder().decode(PublishReport.self, from: Data(one.stdout.utf8)).outcome == .alreadyPublished)
        let unknown = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0", "--forge", "gitee"], in: fixture.url, environment: environment)
        }
        // A value outside --forge's list is a usage error (issue 46), listing the valid ones.
        #expect(unknown.status == 64 && unknown.stderr.contains("Please provide one of 'gitea', 'github' or 'gitlab'."), "\(unknown)")
    }

    /// `release --push --publish` publishes to the forge `[publish]` names, as its last stage.
    @Test func releasePublishGoesToTheConfiguredForge() async throws {
        let fixture = try await TemporaryScope.blocking {
            try ReleaseFixture(release: "\n[publish]\ngitea = \"\(ForgeStandIn.giteaRepository)\"\n")
        }
        let server = try ForgeStandIn(.gitea, tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        let released = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--push", "--publish"], in: fixture.url, environment: server.environment())
        }
        #expect(released.status == 0, "\(released)")
        let state = try await server.state() as? [[String: Any]] ?? []
        let release = try #require(state.first)
        #expect(release["tag_name"] as? String == "v1.0.0" && release["draft"] as? Bool == false)
        let names = (release["assets"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }.sorted()
        let sums = try fixture.repository.directory.read("dist/SHA256SUMS")
        #expect(names.contains("SHA256SUMS") && names.count >= 4, "\(names)")
        for name in names where name != "SHA256SUMS" && name != "manifest.json" {
            #expect(sums.contains("  \(name)\n"), "\(name) is listed in SHA256SUMS")
        }
        let again = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0"], in: fixture.url, environment: server.environment())
        }
        #expect(again.status == 0 && again.stderr.contains("already published"), "\(again)")
    }

    /// The stand-ins are only worth their tests if they refuse what the forges refuse.
    @Test func theStandInsAreStrictWhereTheForgesAre() async throws {
        let gitlab = try ForgeStandIn(.gitlab)
        let gitea = try ForgeStandIn(.gitea)
        defer { gitlab.stop(); gitea.stop() }
        let project = "/projects/acme%2Ftools%2Fvelostream"
        let token = ["PRIVATE-TOKEN": ForgeStandIn.gitlabToken]
        #expect(try await gitlab.send("GET", project + "/releases/v1.0.0", headers: ["PRIVATE-TOKEN": "nope"]).0 == 401)
        #expect(
            try await gitlab.send("GET", project + "/releases/v1.0.0").0 == 404, "private: invisible without a token")
        #expect(
            try await gitlab.send("GET", "/projects/acme/tools/velostream/releases/v1.0.0", headers: token).0 == 404,
            "the path must be URL-encoded")
        #expect(
            try await gitlab.send(
                "PUT", project + "/packages/generic/velo%20stream/1.0.0/a.txt", headers: token,
                body: Data("x".utf8)
            ).0 == 400, "package names are checked")
        let put = try await gitlab.send(
            "PUT", project + "/packages/generic/velostream/1.0.0/a.txt?select=package_file", headers: token,
            body: Data("hello\n".utf8))
        #expect(
            put.0 == 201 && put.1.contains("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"), "\(put)"
        )
        let link = #"{"name":"a.txt","url":"http://x/a","direct_asset_path":"/a.txt","link_type":"package"}"#
        let create = try await gitlab.send(
            "POST", project + "/releases", headers: token.merging(["Content-Type": "application/json"]) { $1 },
            body: Data(#"{"tag_name":"v1.0.0","assets":{"links":[\#(link)]}}"#.utf8))
        #expect(create.0 == 201, "\(create)")
        #expect(
            try await gitlab.send(
                "POST", project + "/releases", headers: token, body: Data(#"{"tag_name":"v1.0.0"}"#.utf8)
            ).0 == 409)
        #expect(
            try await gitlab.send(
                "POST", project + "/releases", headers: token, body: Data(#"{"tag_name":"v9.9.9"}"#.utf8)
            ).0 == 422,
            "no release of a missing tag without ref")
        let duplicate = try await gitlab.send(
            "POST", project + "/releases/v1.0.0/assets/links", headers: token, body: Data(link.utf8))
        #expect(duplicate.0 == 400 && duplicate.1.contains("has already been taken"), "\(duplicate)")
        let badType = try await gitlab.send(
            "POST", project + "/releases/v1.0.0/assets/links", headers: token,
            body: Data(#"{"name":"b","url":"http://x/b","link_type":"binary"}"#.utf8))
        #expect(badType.0 == 400, "\(badType)")

        let repository = "/repos/acme/velostream"
        let auth = ["Authorization": "token \(ForgeStandIn.giteaToken)"]
        #expect(
            try await gitea.send("GET", repository + "/releases", headers: ["Authorization": "token nope"]).0 == 401)
        #expect(try await gitea.send("GET", repository + "/releases").0 == 404, "private: invisible without a token")
        #expect(
            try await gitea.send("POST", repository + "/releases", headers: auth, body: Data(#"{"draft":true}"#.utf8)).0
                == 422)
        #expect(
            try await gitea.send(
                "POST", repository + "/releases", headers: auth,
                body: Data(#"{"tag_name":"v1.0.0","draft":true}"#.utf8)
            ).0 == 201)
        #expect(
            try await gitea.send(
                "POST", repository + "/releases", headers: auth,
                body: Data(#"{"tag_name":"v1.0.0","draft":true}"#.utf8)
            ).0 == 409, "one release per tag")
        let raw = try await gitea.send(
            "POST", repository + "/releases/1/assets?name=a.txt",
            headers: auth.merging(["Content-Type": "text/plain"]) { $1 },
            body: Data("hello\n".utf8))
        #expect(raw.0 == 400, "an attachment is a multipart field: \(raw)")
        let multipart = Data(
            "--b\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\n\r\nhello\n\r\n--b--\r\n"
                .utf8)
        let upload = try await gitea.send(
            "POST", repository + "/releases/1/assets?name=a.txt",
            headers: auth.merging(["Content-Type": "multipart/form-data; boundary=b"]) { $1 }, body: multipart)
        #expect(upload.0 == 201 && upload.1.contains(#""size": 6"#) && !upload.1.contains("sha"), "\(upload)")
    }
}
