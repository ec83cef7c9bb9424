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

/// The `image` and `image-push` stages of `relctl release`, against a real registry.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct ImageReleaseCLITests {
    func withImage(_ fixture: ReleaseFixture, repository: String) throws {
        let config =
            try fixture.repository.directory.read("relctl.toml") + "\n[[image]]\nrepository = \"\(repository)\"\n"
        try fixture.repository.commit("chore: container image", files: ["relctl.toml": config])
        try fixture.repository.git("push", "-q", "origin", "main")
    }

    func images(_ result: RunResult) throws -> [[String: Any]] {
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        return try #require(json["images"] as? [[String: Any]], "\(result.stdout)")
    }

    @Test func dryRunPredictsTheDigestTheRealRunPushesAfterTheTag() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ReleaseFixture()
        try withImage(fixture, repository: "\(registry.host)/acme/demo")
        let env = ["DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path]

        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--push", "--json"], in: fixture.url, environment: env)
        #expect(dry.status == 0, "\(dry)")
        let planned = try #require(try images(dry).first)
        #expect(
            planned["platforms"] as? [String] == ["linux/amd64", "linux/arm64/v8"]
                && planned["pushed"] as? Bool == false)
        #expect(
            !registry.requests().contains { !$0.hasPrefix("GET ") && !$0.hasPrefix("HEAD ") },
            "the dry run writes nothing: \(registry.requests())")
        #expect(!fixture.repository.directory.exists("dist"))

        let real = try relctl(["release", "v1.0.0", "--push", "--json"], in: fixture.url, environment: env)
        #expect(real.status == 0, "\(real)")
        let pushed = try #require(try images(real).first)
        #expect(pushed["digest"] as? String == planned["digest"] as? String, "dry run and real run agree")
        #expect(pushed["pushed"] as? Bool == true && pushed["tags"] as? [String] == ["1.0.0", "latest"])
        #expect(fixture.repository.directory.exists("dist/oci/demo/index.json"))
        let raw = try run(
            "/bin/bash",
            [
                "-c",
                "set -o pipefail; skopeo inspect --tls-verify=false --raw docker://\(registry.host)/acme/demo:latest | sha256sum",
            ])
        #expect("sha256:" + raw.stdout.prefix(64) == pushed["digest"] as? String)
        #expect(real.stderr.contains("image-push"), "\(real.stderr)")
    }

    @Test func aFailedImagePushKeepsTheTagAndSaysHowToFinish() throws {
        let registry = try TestRegistry(user: ("relctl", "s3cret"))
        defer { registry.stop() }
        let fixture = try ReleaseFixture()
        try withImage(fixture, repository: "\(registry.host)/acme/demo")
        let env = ["DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path]

        // The dry run already says the credentials are missing.
        let dry = try relctl(["release", "v1.0.0", "--dry-run", "--push"], in: fixture.url, environment: env)
        #expect(dry.status == 1 && dry.stderr.contains("401 from \(registry.host)"), "\(dry)")

        let real = try relctl(["release", "v1.0.0", "--push"], in: fixture.url, environment: env)
        #expect(real.status == 1, "\(real)")
        #expect(real.stderr.contains("401 from \(registry.host) for acme/demo"), "\(real.stderr)")
        #expect(
            real.stderr.contains("the tag v1.0.0 stays pushed")
                && real.stderr.contains("relctl image --tag v1.0.0 --push"), "\(real.stderr)")
        #expect(try fixture.remoteTags().contains("v1.0.0"), "the pushed tag is not taken back")
        #expect(!registry.requests().contains { $0.hasPrefix("PUT ") })

        // Logged in, the suggested command finishes the job.
        let auth = Data("relctl:s3cret".utf8).base64EncodedString()
        try fixture.repository.directory.write(
            ".docker/config.json", #"{"auths":{"\#(registry.host)":{"auth":"\#(auth)"}}}"#)
        let finish = try relctl(["image", "--tag", "v1.0.0", "--push"], in: fixture.url, environment: env)
        #expect(finish.status == 0, "\(finish)")
    }
}
