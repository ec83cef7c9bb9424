import Foundation
import RelctlDistribution
import RelctlModel
import RelctlProject
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

/// The parts of GitLab and Gitea/Forgejo publishing that need no server: which forges, in which
/// order; project paths and their encoding; API bases from the environment; GitLab's rate-limit
/// headers; links; the newest of duplicate package files.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ForgePublishingTests {
    @Test func configuredForgesArePublishedInTheContractsOrder() throws {
        var settings = PublishSettings()
        #expect(try ForgeSelection(settings: settings).ids == ["github"], "nothing named: GitHub, as in round 2")
        settings.gitea = "acme/velostream"
        #expect(try ForgeSelection(settings: settings).ids == ["gitea"])
        settings.gitlab = "acme/tools/velostream"
        settings.github = "acme/velostream"
        #expect(try ForgeSelection(settings: settings).ids == ["github", "gitlab", "gitea"])
        #expect(try ForgeSelection(settings: settings, only: "gitlab").ids == ["gitlab"])
        #expect(throws: PublishError.self) { try ForgeSelection(settings: settings, only: "bitbucket") }
    }

    @Test func gitLabProjectPathsAndTheirEncoding() throws {
        let project = try #require(GitLabProject("acme/tools/velostream"))
        #expect(project.encoded == "acme%2Ftools%2Fvelostream")
        for bad in ["velostream", "acme//x", "/acme/x", "acme/x/", "acme/../x", "acme/-x", "acme/x y"] {
            #expect(GitLabProject(bad) == nil, "\(bad)")
        }
        #expect(try GitLabProject.resolve(configured: nil, environment: ["CI_PROJECT_PATH": "g/p"]).path == "g/p")
        #expect(try GitLabProject.resolve(configured: "a/b", environment: ["CI_PROJECT_PATH": "g/p"]).path == "a/b")
        #expect(throws: PublishError.self) { try GitLabProject.resolve(configured: nil, environment: [:]) }
        #expect(GitLabAPI.segment("v1.0.0+build/x") == "v1.0.0%2Bbuild%2Fx")
    }

    @Test func apiBasesComeFromTheForgesVariables() throws {
        #expect(try GitLabAPI.baseURL(environment: [:]).absoluteString == "https://gitlab.com/api/v4")
        #expect(
            try GitLabAPI.baseURL(environment: ["CI_API_V4_URL": "https://git.example/api/v4/"]).absoluteString
                == "https://git.example/api/v4")
        #expect(
            try GitLabAPI.baseURL(environment: ["GITLAB_API_URL": "http://h/api/v4", "CI_API_V4_URL": "https://x"])
                .absoluteString == "http://h/api/v4")
        #expect(throws: PublishError.self) { try GitLabAPI.baseURL(environment: ["GITLAB_API_URL": "ftp://h"]) }
        #expect(
            try GiteaReleaseAPI.baseURL(environment: ["GITEA_SERVER_URL": "https://codeberg.org/"]).absoluteString
                == "https://codeberg.org/api/v1")
        #expect(
            try GiteaReleaseAPI.baseURL(environment: ["GITEA_API_URL": "https://h/api/v1", "GITEA_SERVER_URL": "x"])
                .absoluteString == "https://h/api/v1")
        do {
            _ = try GiteaReleaseAPI.baseURL(environment: [:])
            Issue.record("no server is bad input")
        } catch let error as PublishError {
            #expect(error.exitCode == .badInput && error.message.contains("GITEA_API_URL or GITEA_SERVER_URL"))
        }
    }

    @Test func gitLabsRateLimitHeadersAreHonoured() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let headers = ["RateLimit-Remaining": "0", "RateLimit-Reset": "1800000030"]
        #expect(
            RetryAdvice.of(
                HTTPResponse(status: 429, headers: headers, body: Data()), now: now, policy: .standard, attempt: 1)
                == .rateLimited(until: Date(timeIntervalSince1970: 1_800_000_031)))
        let both = headers.merging(["Retry-After": "5"]) { $1 }
        #expect(
            RetryAdvice.of(
                HTTPResponse(status: 429, headers: both, body: Data()), now: now, policy: .standard, attempt: 1)
                == .rateLimited(until: now.addingTimeInterval(5)), "Retry-After first")
    }

    @Test func linksAndTheNewestOfDuplicatePackageFiles() {
        let archive = GitLabReleaseLink(asset: "velo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz", url: "https://x/a")
        #expect(
            archive.linkType == "package" && archive.directAssetPath == "/velo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz")
        #expect(GitLabReleaseLink(asset: "SHA256SUMS", url: "https://x/b").linkType == "other")
        let files = [
            GitLabPackageFile(id: 3, packageID: 1, fileName: "a", size: 1, fileSHA256: "new"),
            GitLabPackageFile(id: 2, packageID: 1, fileName: "a", size: 1, fileSHA256: "old"),
            GitLabPackageFile(id: 5, packageID: 1, fileName: "b", size: 1, fileSHA256: "b"),
        ]
        #expect(GitLabPackageFile.newest(files).mapValues(\.fileSHA256) == ["a": "new", "b": "b"])
    }

    @Test func theConfigurationKeysAreChecked() throws {
        try withTemporaryDirectory { directory in
            try directory.write(
                "relctl.toml",
                "[project]\nname = \"velo\"\n\n[publish]\ngitlab = \"acme/tools/velo\"\ngitea = \"acme/velo\"\n")
            let context = Context(workingDirectory: directory.url)
            let config = try ConfigLoader.load(path: nil, context: context)
            #expect(config.publish.gitlab == "acme/tools/velo" && config.publish.gitea == "acme/velo")
            try directory.write(
                "relctl.toml", "[project]\nname = \"velo\"\n\n[publish]\ngitlab = \"velo\"\ngitea = \"a/b/c\"\n")
            do {
                _ = try ConfigLoader.load(path: nil, context: context)
                Issue.record("bad paths are refused")
            } catch let error as any RelctlError {
                #expect(
                    error.message.contains("publish.gitlab") && error.message.contains("publish.gitea"),
                    "\(error.message)")
            }
        }
    }
}
