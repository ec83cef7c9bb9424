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

/// What a release publishes (PRODUCT.md "What a release publishes"): exactly this tag's files that
/// SHA256SUMS lists (archives, SBOMs, installers), SHA256SUMS, its signatures and manifest.json;
/// never another tag's files lying in dist/; installers listed and published; notes that send
/// users only to assets. Driven through the built relctl against the GitHub stand-in.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct PublishedAssetsCLITests {
    struct Plan: Decodable {
        struct Stage: Decodable { var name: String; var status: String; var detail: String? }
        var ok: Bool
        var stages: [Stage]
        var notes: String?
        var distFiles: [String]
    }

    static let installer = "\n[installer]\nenabled = true\n"

    /// The names SHA256SUMS lists in `dist`, plus the list and its companions that exist.
    private func listedAssets(in dist: URL) throws -> [String] {
        let sums = try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        var names = sums.split(separator: "\n").map { String($0.split(separator: " ", maxSplits: 1)[1].dropFirst()) }
        names.append("SHA256SUMS")
        for companion in ["manifest.json", "SHA256SUMS.sig", "SHA256SUMS.minisig"]
        where FileManager.default.fileExists(atPath: dist.appendingPathComponent(companion).path) {
            names.append(companion)
        }
        return names.sorted()
    }

    /// The commander.js case: v1.0.0's SBOMs (and archives) lie in dist/ when v1.0.1 is released;
    /// only v1.0.1's files go up, the dry run predicts the same count, and `relctl publish v1.0.0`
    /// refuses a dist/ that now holds v1.0.1's list.
    @Test func aReleasePublishesOnlyItsOwnTagsFiles() async throws {
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture() }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        let first = try await TemporaryScope.blocking { try relctl(["release", "v1.0.0"], in: fixture.url) }
        #expect(first.status == 0, "\(first)")
        try fixture.repository.commit("fix: quieter", files: ["VERSION": "1.0.1\n"])
        try fixture.repository.git("push", "-q", "origin", "main")

        let dry = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.1", "--dry-run", "--push", "--publish", "--json"], in: fixture.url,
                environment: server.environment())
        }
        #expect(dry.status == 0, "\(dry)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(dry.stdout.utf8))
        let publish = plan.stages.first { $0.name == "publish" }
        #expect(publish?.detail?.contains("would publish 6 assets") == true, "\(plan.stages)")

        let real = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.1", "--push", "--publish"], in: fixture.url, environment: server.environment())
        }
        #expect(real.status == 0, "\(real)")
        let dist = fixture.url.appendingPathComponent("dist")
        let release = try #require(try await server.releases().first { $0.tag_name == "v1.0.1" })
        let uploaded = release.assets.map(\.name).sorted()
        #expect(uploaded == (try listedAssets(in: dist)), "\(uploaded)")
        #expect(uploaded.count == 6 && !uploaded.contains { $0.contains("v1.0.0") }, "\(uploaded)")
        // The older release's files are still in dist/: they were left alone, not uploaded.
        #expect(
            FileManager.default.fileExists(
                atPath: dist.appendingPathComponent("demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json").path))

        // `relctl publish` on its own, after a release without --publish: the same rule.
        try fixture.repository.commit("fix: quieter still", files: ["VERSION": "1.0.2\n"])
        try fixture.repository.git("push", "-q", "origin", "main")
        let third = try await TemporaryScope.blocking {
            try relctl(["release", "v1.0.2", "--push"], in: fixture.url, environment: server.environment())
        }
        #expect(third.status == 0, "\(third)")
        let published = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.2"], in: fixture.url, environment: server.environment())
        }
        #expect(published.status == 0, "\(published)")
        let latest = try #require(try await server.releases().first { $0.tag_name == "v1.0.2" })
        #expect(latest.assets.map(\.name).sorted() == (try listedAssets(in: dist)), "\(latest.assets.map(\.name))")
        #expect(!latest.assets.contains { $0.name.contains("v1.0.0") || $0.name.contains("v1.0.1") })

        // Publishing an older tag from this dist/ would upload v1.0.2's files under v1.0.0.
        try fixture.repository.git("push", "-q", "origin", "v1.0.0")
        let older = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0"], in: fixture.url, environment: server.environment())
        }
        #expect(older.status == 2, "\(older)")
        #expect(older.stderr.contains("dist/manifest.json: is the manifest of v1.0.2, not v1.0.0"), "\(older)")
        #expect(try await server.releases().map(\.tag_name).sorted() == ["v1.0.1", "v1.0.2"])
    }

    /// Installers are listed in SHA256SUMS (so signed, verified and published with the archives),
    /// and the notes' download commands name only assets (no per-archive `.sha256`).
    @Test func installersArePublishedAndTheNotesNameOnlyAssets() async throws {
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture(release: Self.installer) }
        let server = try GitHubStandIn(tags: [], gitDirectory: fixture.remote.url)
        defer { server.stop() }
        // The remote reads as GitHub (the notes' links come from it); git pushes to the bare one.
        try fixture.repository.git("remote", "set-url", "origin", "https://github.com/acme/velostream.git")
        try fixture.repository.git(
            "config", "url.\(fixture.remote.path).insteadOf", "https://github.com/acme/velostream.git")

        let result = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--push", "--publish", "--json"], in: fixture.url,
                environment: server.environment())
        }
        #expect(result.status == 0, "\(result)")
        let plan = try JSONDecoder().decode(Plan.self, from: Data(result.stdout.utf8))
        let dist = fixture.url.appendingPathComponent("dist")
        let sums = try String(contentsOf: dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(sums.contains("  demo-installer.sh\n") && sums.contains("  demo-installer.ps1\n"), "\(sums)")
        #expect(try run("sha256sum", ["-c", "SHA256SUMS"], in: dist).status == 0)

        let release = try #require(try await server.releases().first)
        let assets = Set(release.assets.map(\.name))
        #expect(assets.isSuperset(of: ["demo-installer.sh", "demo-installer.ps1"]), "\(assets.sorted())")
        #expect(assets == Set(try listedAssets(in: dist)))

        // Every file the notes tell users to download is an asset of this release.
        let notes = try #require(plan.notes)
        let prefix = "https://github.com/acme/velostream/releases/download/v1.0.0/"
        let downloads = notes.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "`" })
            .filter { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        #expect(downloads.contains("demo-installer.sh") && downloads.count >= 3, "\(notes)")
        for name in downloads { #expect(assets.contains(name), "the notes send users to `\(name)`, not an asset") }
        #expect(!notes.contains(".sha256"), "\(notes)")
        // And the hand check the notes give passes on the downloaded archive.
        let archive = "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"
        let check = try #require(
            notes.split(separator: "\n").first {
                $0.hasPrefix("echo ") && $0.contains(archive) && $0.contains("sha256sum")
            })
        #expect(try sh(String(check), in: dist).status == 0, "\(check)")
    }

    /// `relctl installer` and the release's installer stage take the download URL from
    /// `[publish] github` when nothing else names the repository, and `relctl installer` lists
    /// what it wrote in the folder's SHA256SUMS.
    @Test func installersUseThePublishRepository() async throws {
        let config = Self.installer + "\n[publish]\ngithub = \"acme/velostream\"\n"
        let fixture = try await TemporaryScope.blocking { try ReleaseFixture(release: config) }
        let noRepository = ["GITHUB_REPOSITORY": ""]
        let released = try await TemporaryScope.blocking {
            try relctl(["release", "v1.0.0"], in: fixture.url, environment: noRepository)
        }
        #expect(released.status == 0, "\(released)")
        #expect(!released.stderr.contains("INSTALLER_BASE_URL"), "\(released)")
        let script = try fixture.repository.directory.read("dist/demo-installer.sh")
        #expect(
            script.contains("'https://github.com/acme/velostream/releases/download/v1.0.0/'"), "\(script.prefix(800))")

        // The command on its own (CI's merge job), after `relctl checksum` rewrote the list.
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("dist/demo-installer.sh"))
        let summed = try relctl(["checksum", "dist"], in: fixture.url)
        #expect(summed.status == 0, "\(summed)")
        let generated = try relctl(["installer"], in: fixture.url, environment: noRepository)
        #expect(generated.status == 0, "\(generated)")
        #expect(!generated.stderr.contains("INSTALLER_BASE_URL"), "\(generated)")
        #expect(try fixture.repository.directory.read("dist/demo-installer.sh") == script)
        let sums = try fixture.repository.directory.read("dist/SHA256SUMS")
        #expect(sums.contains("  demo-installer.sh\n") && sums.contains("  demo-installer.ps1\n"), "\(sums)")
        #expect(try run("sha256sum", ["-c", "SHA256SUMS"], in: fixture.url.appendingPathComponent("dist")).status == 0)
        #expect(try relctl(["verify"], in: fixture.url).status == 0)
    }

    /// A project with no `[[target]]` has no SHA256SUMS: `release --push --publish` publishes its
    /// notes with no asset instead of failing on "run relctl checksum first", and so does
    /// `relctl publish TAG` on its own.
    @Test func aTagOnlyReleasePublishesItsNotesAndNoAsset() async throws {
        let (repository, remote) = try ReleaseFilesCLITests.tagOnlyProject()
        let server = try GitHubStandIn(tags: [], gitDirectory: remote.url)
        defer { server.stop() }
        let released = try await TemporaryScope.blocking {
            try relctl(
                ["release", "v1.0.0", "--push", "--publish"], in: repository.url, environment: server.environment())
        }
        #expect(released.status == 0, "\(released)")
        let release = try #require(try await server.releases().first)
        #expect(!release.draft && release.tag_name == "v1.0.0" && release.assets.isEmpty, "\(release)")
        #expect(release.body == (try repository.directory.read("dist/RELEASE_NOTES.md")))

        let again = try await TemporaryScope.blocking {
            try relctl(["publish", "v1.0.0"], in: repository.url, environment: server.environment())
        }
        #expect(again.status == 0 && again.stderr.contains("already published"), "\(again)")
    }
}
