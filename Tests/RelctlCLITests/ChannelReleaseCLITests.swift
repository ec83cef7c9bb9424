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

/// Channels inside `relctl release`: written before the tag, listed in `distFiles` by a dry run and
/// in SHA256SUMS by a real one; a plugin channel (the example announcement writer) previews on a
/// dry run and writes on a real run; a failing plugin fails the release with no tag left.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct ChannelReleaseCLITests {
    struct Plan: Decodable {
        struct Stage: Decodable { var name: String; var status: String }
        var ok: Bool
        var distFiles: [String]
        var stages: [Stage]
        var problems: [String]
    }

    static let announce = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/velostream/channels/announce.py")

    /// The release fixture with a chart, a flake and a plugin channel (`command`).
    func fixture(plugin: String = #"["python3", "channels/announce.py"]"#) throws -> ReleaseFixture {
        let fixture = try ReleaseFixture(
            release: """

                [[chart]]
                path = "charts/demo"

                [nix]
                enabled = true

                [[channel]]
                name = "announce"
                command = \(plugin)
                """)
        try fixture.repository.commit(
            "chore: chart and channel",
            files: [
                "charts/demo/Chart.yaml": "apiVersion: v2\nname: demo\nversion: 1.0.0\nappVersion: \"1.0.0\"\n",
                "charts/demo/templates/cm.yaml": "kind: ConfigMap\n",
                "channels/announce.py": try String(contentsOf: Self.announce, encoding: .utf8),
            ])
        try fixture.repository.git("push", "-q", "origin", "main")
        return fixture
    }

    static let environment = ["INSTALLER_BASE_URL": "https://downloads.example.com/demo/"]
    static let channelFiles = ["demo-1.0.0.tgz", "demo-v1.0.0-announcement.md", "demo-v1.0.0-flake.tar.gz"]

    @Test func dryRunListsEveryChannelFileAndThePluginPreviews() throws {
        let fixture = try fixture()
        let result = try relctl(
            ["release", "v1.0.0", "--dry-run", "--json", "--verbose"], in: fixture.url, environment: Self.environment)
        #expect(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        #expect(plan.ok)
        for name in Self.channelFiles + ["SHA256SUMS", "RELEASE_NOTES.md"] {
            #expect(plan.distFiles.contains(name), "\(name) missing from \(plan.distFiles)")
        }
        #expect(plan.stages.first { $0.name == "channels" }?.status == "ok")
        #expect(result.stderr.contains("announce: preview (dry run, nothing posted)"), "\(result.stderr)")
        #expect(result.stderr.contains("# demo 1.0.0 is out"))
        #expect(try fixture.localTags().isEmpty && !fixture.repository.directory.exists("dist"))
    }

    @Test func realRunWritesTheChannelsFilesListedAndVerifiable() throws {
        let fixture = try fixture()
        let result = try relctl(["release", "v1.0.0", "--json"], in: fixture.url, environment: Self.environment)
        #expect(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        let dist = fixture.url.appendingPathComponent("dist")
        let sums = try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        for name in Self.channelFiles {
            #expect(plan.distFiles.contains(name), "\(name) missing from \(plan.distFiles)")
            #expect(sums.contains("  \(name)\n"), "\(name) is not listed in SHA256SUMS")
        }
        let check = try run("sha256sum", ["-c", "SHA256SUMS"], in: dist)
        #expect(check.status == 0, "\(check)")
        let verify = try relctl(["verify"], in: fixture.url)
        #expect(verify.status == 0, "\(verify)")
        let announcement = try String(
            contentsOf: dist.appendingPathComponent("demo-v1.0.0-announcement.md"), encoding: .utf8)
        #expect(announcement.contains("https://downloads.example.com/demo/demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"))
        #expect(try fixture.localTags() == ["v1.0.0"])
    }

    @Test func aFailingPluginFailsTheReleaseWithNoTagAndNoFiles() throws {
        let fixture = try fixture(plugin: #"["sh", "-c", "echo 'webhook refused' >&2; exit 3"]"#)
        let result = try relctl(["release", "v1.0.0", "--push"], in: fixture.url, environment: Self.environment)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains("channel `announce` failed") && result.stderr.contains("webhook refused"),
            "\(result)")
        #expect(try fixture.localTags().isEmpty && fixture.remoteTags().isEmpty)
        let dist = fixture.url.appendingPathComponent("dist")
        let left = (try folderNames(dist.path))
        #expect(left.isEmpty, "dist/ holds \(left)")
    }

    @Test func aPluginFileOutsideDistIsRefused() throws {
        let fixture = try fixture(plugin: #"["sh", "-c", "cat >/dev/null; echo '{\"files\": [\"../escape.txt\"]}'"]"#)
        let result = try relctl(["release", "v1.0.0"], in: fixture.url, environment: Self.environment)
        #expect(result.status == 1 && result.stderr.contains("../escape.txt"), "\(result)")
        #expect(try fixture.localTags().isEmpty)
    }

    @Test
    func releaseWithPushPushesTheChartAfterTheTagAndItsDryRunOnlyLooks() throws {
        let registry = try TestRegistry()
        defer { registry.stop() }
        let fixture = try ReleaseFixture(
            release: "\n[[chart]]\npath = \"charts/demo\"\nrepository = \"oci://\(registry.host)/acme/charts\"\n")
        try fixture.repository.commit(
            "chore: chart",
            files: ["charts/demo/Chart.yaml": "apiVersion: v2\nname: demo\nversion: 1.0.0\nappVersion: \"1.0.0\"\n"])
        try fixture.repository.git("push", "-q", "origin", "main")
        let environment = ["DOCKER_CONFIG": fixture.url.appendingPathComponent(".docker").path]

        let dry = try relctl(
            ["release", "v1.0.0", "--dry-run", "--push", "--json"], in: fixture.url, environment: environment)
        #expect(dry.status == 0, "\(dry)")
        let dryPlan = try JSONDecoder().decode(Plan.self, from: Data(dry.stdout.utf8))
        #expect(dryPlan.stages.first { $0.name == "channel-publish" }?.status == "ok", "\(dryPlan.stages)")
        #expect(
            !registry.requests().contains { $0.hasPrefix("PUT ") || $0.hasPrefix("POST ") }, "\(registry.requests())")

        let real = try relctl(["release", "v1.0.0", "--push", "--json"], in: fixture.url, environment: environment)
        #expect(real.status == 0, "\(real)")
        #expect(try fixture.remoteTags() == ["v1.0.0"])
        let pulled = try run(
            "skopeo", ["inspect", "--tls-verify=false", "--raw", "docker://\(registry.host)/acme/charts/demo:1.0.0"])
        #expect(
            pulled.status == 0 && pulled.stdout.contains("application/vnd.cncf.helm.chart.content.v1.tar+gzip"),
            "\(pulled)")
    }

    @Test func aLaterReleaseReplacesTheFormulaInDistsHomebrewFolder() throws {
        let fixture = try ReleaseFixture(release: "\n[homebrew]\ntap = \"/nonexistent/tap.git\"\n")
        let first = try relctl(["release", "v1.0.0"], in: fixture.url, environment: Self.environment)
        #expect(first.status == 0, "\(first)")
        try fixture.repository.commit("fix: again", files: ["VERSION": "1.0.1\n"])
        let second = try relctl(["release", "v1.0.1", "--json"], in: fixture.url, environment: Self.environment)
        #expect(second.status == 0, "\(second)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(second.stdout.utf8))
        #expect(plan.distFiles.contains("homebrew/Formula/demo.rb"), "\(plan.distFiles)")
        let formula = try fixture.repository.directory.read("dist/homebrew/Formula/demo.rb")
        #expect(
            formula.contains("version \"1.0.1\"") && formula.contains("demo-v1.0.1-x86_64-unknown-linux-gnu.tar.gz"),
            "\(formula)")
        #expect(!formula.contains("1.0.0"))
    }
}
