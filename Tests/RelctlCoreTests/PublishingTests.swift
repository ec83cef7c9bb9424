import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct PublishingTests {
    @Test func uploadURLTemplatesExpandLikeRFC6570() {
        let template = URITemplate("https://uploads.github.com/repos/acme/velo/releases/7/assets{?name,label}")
        #expect(
            template.expand(["name": "velo-v1.0.0-x86_64.tar.gz"])
                == "https://uploads.github.com/repos/acme/velo/releases/7/assets?name=velo-v1.0.0-x86_64.tar.gz")
        #expect(
            template.expand(["name": "a b+c&d.zip", "label": "Linux (x86)"])
                == "https://uploads.github.com/repos/acme/velo/releases/7/assets?name=a%20b%2Bc%26d.zip&label=Linux%20%28x86%29"
        )
        #expect(template.expand([:]) == "https://uploads.github.com/repos/acme/velo/releases/7/assets")
        #expect(URITemplate("https://h/{owner}/x{?q}").expand(["owner": "é"]) == "https://h/%C3%A9/x")
    }

    @Test func linkHeadersGiveTheNextPage() {
        let header =
            #"<https://api.github.com/repositories/1/releases?per_page=100&page=2>; rel="next", <https://api.github.com/repositories/1/releases?per_page=100&page=5>; rel="last""#
        #expect(
            LinkHeader.url(header, rel: "next")?.absoluteString
                == "https://api.github.com/repositories/1/releases?per_page=100&page=2")
        #expect(LinkHeader.url(header, rel: "last")?.absoluteString.hasSuffix("page=5") == true)
        #expect(LinkHeader.url(#"<https://x/?page=1>; rel="prev first""#, rel: "next") == nil)
        #expect(LinkHeader.url(#"<https://x/?page=1>; rel="prev first""#, rel: "first") != nil)
        #expect(LinkHeader.url(nil, rel: "next") == nil)
    }

    @Test func repositoriesFromRemoteURLsInEveryForm() throws {
        for remote in [
            "https://github.com/acme/velostream.git", "https://github.com/acme/velostream",
            "https://x-access-token:abc@github.com/acme/velostream.git",
            "git@github.com:acme/velostream.git", "git@github.com:acme/velostream",
            "ssh://git@github.com/acme/velostream.git",
            "ssh://git@ghe.example.com:2222/acme/velostream.git", "https://ghe.example.com/acme/velostream/",
        ] {
            #expect(GitHubRepository(remoteURL: remote)?.description == "acme/velostream", "\(remote)")
        }
        for remote in ["/srv/git/velostream.git", "../velostream", "https://github.com/velostream"] {
            #expect(GitHubRepository(remoteURL: remote) == nil, "\(remote)")
        }
        #expect(GitHubRepository("acme/velo.stream")?.name == "velo.stream")
        #expect(
            GitHubRepository("acme") == nil && GitHubRepository("acme/velo/x") == nil
                && GitHubRepository("acme/..") == nil)

        // Config, then GITHUB_REPOSITORY, then the remote.
        let fromConfig = try GitHubRepository.resolve(
            configured: "a/b", environment: ["GITHUB_REPOSITORY": "c/d"], remoteURL: "git@github.com:e/f.git",
            remoteName: "origin")
        #expect(fromConfig.description == "a/b")
        let fromEnvironment = try GitHubRepository.resolve(
            configured: nil, environment: ["GITHUB_REPOSITORY": "c/d"], remoteURL: "git@github.com:e/f.git",
            remoteName: "origin")
        #expect(fromEnvironment.description == "c/d")
        let fromRemote = try GitHubRepository.resolve(
            configured: nil, environment: [:], remoteURL: "git@github.com:e/f.git", remoteName: "origin")
        #expect(fromRemote.description == "e/f")
        #expect(throws: PublishError.self) {
            try GitHubRepository.resolve(
                configured: nil, environment: [:], remoteURL: "/srv/x.git", remoteName: "origin")
        }
    }

    @Test func rateLimitSignalsAreReadAsGitHubDocumentsThem() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let policy = RetryPolicy.standard
        let retryAfter = HTTPResponse(status: 429, headers: ["retry-after": "7"], body: Data())
        #expect(
            RetryAdvice.of(retryAfter, now: now, policy: policy, attempt: 1)
                == .rateLimited(until: now.addingTimeInterval(7)))
        let primary = HTTPResponse(
            status: 403, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1800000100"], body: Data())
        #expect(
            RetryAdvice.of(primary, now: now, policy: policy, attempt: 1)
                == .rateLimited(until: Date(timeIntervalSince1970: 1_800_000_101)))
        let httpDate = HTTPResponse(
            status: 429, headers: ["Retry-After": "Fri, 15 Jan 2027 08:00:10 GMT"], body: Data())
        if case .rateLimited(let until) = RetryAdvice.of(httpDate, now: now, policy: policy, attempt: 1) {
            #expect(abs(until.timeIntervalSince1970 - 1_800_000_010) < 1, "\(until.timeIntervalSince1970)")
        } else {
            Issue.record("an HTTP-date Retry-After is a rate limit")
        }
        // A 403 without rate-limit headers is a permission problem: not retried.
        #expect(
            RetryAdvice.of(HTTPResponse(status: 403, headers: [:], body: Data()), now: now, policy: policy, attempt: 1)
                == .final)
        #expect(
            RetryAdvice.of(HTTPResponse(status: 502, headers: [:], body: Data()), now: now, policy: policy, attempt: 1)
                == .serverError)
        #expect(
            RetryAdvice.of(HTTPResponse(status: 422, headers: [:], body: Data()), now: now, policy: policy, attempt: 1)
                == .final)
    }

    @Test func anUnknownPublisherListsTheKnownOnes() {
        #expect(throws: PublishError.self) { try PublisherRegistry.publisher(for: "bitbucket") }
        do {
            _ = try PublisherRegistry.publisher(for: "githbu")
            Issue.record("expected an error")
        } catch let error as PublishError {
            #expect(error.exitCode == .badInput)
            #expect(
                error.message.contains("known publishers: gitea, github, gitlab") && error.message.contains("github"),
                "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect((try? PublisherRegistry.publisher(for: "github"))?.id == "github")
    }

    @Test func assetsAreEveryListedFileAndTheCompanions() async throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "relctl-assets-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let archive = Data("archive".utf8)
        try archive.write(to: directory.appendingPathComponent("a.tar.gz"))
        try Data("sbom".utf8).write(to: directory.appendingPathComponent("a.tar.gz.cdx.json"))
        try Data("sig".utf8).write(to: directory.appendingPathComponent("SHA256SUMS.minisig"))
        try Data("notes".utf8).write(to: directory.appendingPathComponent("RELEASE_NOTES.md"))
        try Data("stray".utf8).write(to: directory.appendingPathComponent("b.zip"))
        let hash = try FileHasher.sha256(of: directory.appendingPathComponent("a.tar.gz"))
        try Data("\(hash)  a.tar.gz\n".utf8).write(to: directory.appendingPathComponent("SHA256SUMS"))
        let set = try await ReleaseAssetSet.collect(dist: directory, shownDist: "dist")
        // An SBOM the list does not name is another release's (or a stray): not an asset.
        #expect(set.names == ["SHA256SUMS", "SHA256SUMS.minisig", "a.tar.gz"])
        #expect(set.assets.first { $0.name == "a.tar.gz" }?.sha256 == hash)
    }

    @Test func thisTagsProvenanceGoesUpAndAnotherTagsStays() async throws {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
            "relctl-assets-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("archive".utf8).write(to: directory.appendingPathComponent("a.tar.gz"))
        let hash = try FileHasher.sha256(of: directory.appendingPathComponent("a.tar.gz"))
        try Data("\(hash)  a.tar.gz\n".utf8).write(to: directory.appendingPathComponent("SHA256SUMS"))
        try Data(#"{"schema":1,"project":"velo","tag":"v1.1.0","version":"1.1.0","commit":"abc","artifacts":[]}"#.utf8)
            .write(to: directory.appendingPathComponent("manifest.json"))
        try Data("{}".utf8).write(to: directory.appendingPathComponent("velo-v1.1.0.intoto.jsonl"))
        try Data("{}".utf8).write(to: directory.appendingPathComponent("velo-v1.0.0.intoto.jsonl"))
        let set = try await ReleaseAssetSet.collect(dist: directory, shownDist: "dist", tag: "v1.1.0")
        #expect(set.names == ["SHA256SUMS", "a.tar.gz", "manifest.json", "velo-v1.1.0.intoto.jsonl"])
    }
}

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct PublishWorkflowTests {
    @Test func theGeneratedReleaseJobPublishesWithRelctl() {
        let text = ReleaseWorkflow.body(config: RelctlConfig.defaults(root: URL(fileURLWithPath: "/tmp/velostream")))
        #expect(text.contains("run: relctl publish \"$TAG\""))
        #expect(text.contains("GITHUB_TOKEN: ${{ github.token }}"))
        #expect(!text.contains("gh release"))
    }
}
