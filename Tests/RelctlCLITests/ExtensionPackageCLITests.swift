import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Examples/relctl-gradle builds its own relctl from the libraries with one more manifest reader
/// and one more publisher (the public extension API). Built here, then run on a project whose
/// version lives in gradle.properties and whose releases are mirrored into a folder, side by side
/// with the stock relctl, which knows neither.
@Suite("An extension package", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct ExtensionPackageCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The extension's relctl, built once per run for all the suite's tests (each test used to
    /// build it again: a `swift build` with nothing to do still loads and plans the package,
    /// seconds of CPU). A failed build fails every test that needs it, with the build's output.
    static let example = Result { try buildExampleOnce() }

    static func buildExample() throws -> URL { try example.get() }

    /// A scratch folder of its own next to .build (git-ignored), kept between runs so only the
    /// first build is slow; `swift test`'s own build holds .build's lock meanwhile.
    static func buildExampleOnce() throws -> URL {
        let scratch = root.appendingPathComponent(".build-examples")
        let package = root.appendingPathComponent("Examples/relctl-gradle")
        let arguments = ["build", "--package-path", package.path, "--scratch-path", scratch.path]
        var build = try run("swift", arguments)
        if build.status != 0 {
            // A source file of relctl was added, moved or removed since the kept scratch folder was
            // built: SwiftPM may keep the stale build description ("missing inputs", or a type the
            // new file declares not found), so start that folder afresh once; a real compile error
            // fails again.
            try? FileManager.default.removeItem(at: scratch)
            build = try run("swift", arguments)
        }
        guard build.status == 0 else { throw TestFailure("swift build of Examples/relctl-gradle failed: \(build)") }
        return scratch.appendingPathComponent("debug/relctl-gradle")
    }

    /// A git project whose version lives in gradle.properties.
    static func gradleProject(kind: String?, properties: String) throws -> GitRepository {
        let repository = try GitRepository()
        let kindLine = kind.map { "kind = \"\($0)\"\n" } ?? ""
        try repository.commit(
            "start",
            files: [
                "relctl.toml":
                    "[project]\nname = \"gradle-app\"\n[[version]]\npath = \"gradle.properties\"\n\(kindLine)",
                "gradle.properties": properties,
            ])
        return repository
    }

    @Test func theExtendedRelctlReadsItsOwnManifestKind() throws {
        let binary = try Self.buildExample()
        let repository = try Self.gradleProject(kind: nil, properties: "org.gradle.jvmargs=-Xmx2g\nversion=1.2.3\n")

        let matching = try run(binary.path, ["validate-tag", "v1.2.3"], in: repository.url)
        #expect(matching.status == 0, "\(matching)")

        let mismatch = try run(binary.path, ["validate-tag", "v1.3.0"], in: repository.url)
        #expect(mismatch.status == 1, "\(mismatch)")
        #expect(mismatch.stderr.contains("gradle.properties"), "\(mismatch)")
        #expect(mismatch.stderr.contains("1.2.3"), "\(mismatch)")

        // The same command line otherwise: its version output and its other commands.
        let version = try run(binary.path, ["--version"], in: repository.url)
        #expect(version.stdout.hasPrefix("relctl "), "\(version)")

        // The stock relctl does not know the kind: bad input naming the file.
        let stock = try relctl(["validate-tag", "v1.2.3"], in: repository.url)
        #expect(stock.status == 2, "\(stock)")
        #expect(stock.stderr.contains("gradle.properties"), "\(stock)")
    }

    @Test func aReaderWithoutItsVersionLineIsBadInputNamingTheFile() throws {
        let binary = try Self.buildExample()
        let repository = try Self.gradleProject(kind: "gradle", properties: "org.gradle.jvmargs=-Xmx2g\n")
        let result = try run(binary.path, ["validate-tag", "v1.2.3"], in: repository.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("gradle.properties: has no `version=` line"), "\(result)")
    }

    /// A release in dist/ (SHA256SUMS lists this tag's archive) next to an older release's file,
    /// and `[publish] mirror` naming `mirror`.
    static func mirroredProject(mirror: String) throws -> GitRepository {
        let repository = try gradleProject(kind: nil, properties: "version=1.2.3\n")
        _ = try repository.directory.write(
            "relctl.toml",
            "[project]\nname = \"gradle-app\"\n[[version]]\npath = \"gradle.properties\"\n[publish]\nmirror = \"\(mirror)\"\n"
        )
        let archive = try repository.directory.write("dist/gradle-app-1.2.3.tar.gz", "the 1.2.3 archive")
        _ = try repository.directory.write("dist/gradle-app-1.2.2.tar.gz", "an older release's archive")
        let digest = try run("sha256sum", [archive.lastPathComponent], in: archive.deletingLastPathComponent())
        _ = try repository.directory.write("dist/SHA256SUMS", digest.stdout)
        _ = try repository.directory.write("dist/RELEASE_NOTES.md", "## 1.2.3\n")
        return repository
    }

    @Test func theExtendedRelctlPublishesThroughItsOwnPublisher() throws {
        let binary = try Self.buildExample()
        let mirror = try TemporaryDirectory()
        let repository = try Self.mirroredProject(mirror: mirror.url.path)
        let published = mirror.url.appendingPathComponent("v1.2.3")

        let first = try run(binary.path, ["publish", "v1.2.3", "--json"], in: repository.url)
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("\"outcome\" : \"published\""), "\(first)")
        // Exactly this tag's files: the older archive lying in dist/ stays there.
        let names = try FileManager.default.contentsOfDirectory(atPath: published.path).sorted()
        #expect(names == ["SHA256SUMS", "gradle-app-1.2.3.tar.gz"], "\(names)")
        let copied = try String(
            contentsOf: published.appendingPathComponent("gradle-app-1.2.3.tar.gz"), encoding: .utf8)
        #expect(copied == "the 1.2.3 archive")

        // Again: nothing to do.
        let again = try run(binary.path, ["publish", "v1.2.3", "--json"], in: repository.url)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("\"outcome\" : \"already-published\""), "\(again)")

        // A file that differs is refused, naming it, and left alone; --replace puts ours back.
        try "tampered".write(
            to: published.appendingPathComponent("gradle-app-1.2.3.tar.gz"), atomically: true, encoding: .utf8)
        let differs = try run(binary.path, ["publish", "v1.2.3"], in: repository.url)
        #expect(differs.status == 1, "\(differs)")
        #expect(
            differs.stderr.contains("gradle-app-1.2.3.tar.gz") && differs.stderr.contains("--replace"), "\(differs)")
        #expect(
            try String(contentsOf: published.appendingPathComponent("gradle-app-1.2.3.tar.gz"), encoding: .utf8)
                == "tampered")
        let replaced = try run(binary.path, ["publish", "v1.2.3", "--replace", "--json"], in: repository.url)
        #expect(replaced.status == 0, "\(replaced)")
        #expect(replaced.stdout.contains("\"replaced\" : [\n    \"gradle-app-1.2.3.tar.gz\""), "\(replaced)")
        #expect(
            try String(contentsOf: published.appendingPathComponent("gradle-app-1.2.3.tar.gz"), encoding: .utf8)
                == "the 1.2.3 archive")

        // An unknown --forge lists the added publisher among the known ones.
        let unknown = try run(binary.path, ["publish", "v1.2.3", "--forge", "mirrror"], in: repository.url)
        #expect(unknown.status == 64 && unknown.stderr.contains("mirror"), "\(unknown)")

        // The stock relctl does not know the key: bad input naming it, nothing published.
        let stock = try relctl(["publish", "v1.2.3"], in: repository.url)
        #expect(stock.status == 2, "\(stock)")
        #expect(stock.stderr.contains("unknown key `mirror` in [publish]"), "\(stock)")
    }

    @Test func aMirrorFolderThatDoesNotExistIsBadInputBeforeAnythingIsCopied() throws {
        let binary = try Self.buildExample()
        let mirror = try TemporaryDirectory()
        let missing = mirror.url.appendingPathComponent("not-there")
        let repository = try Self.mirroredProject(mirror: missing.path)
        let result = try run(binary.path, ["publish", "v1.2.3"], in: repository.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("\(missing.path): the [publish] mirror folder does not exist"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func theExtendedRelctlWritesItsOwnChannel() throws {
        let binary = try Self.buildExample()
        let fixture = try ChannelFixture(channels: "\n[[channel]]\nname = \"update-feed\"\n")
        try fixture.packageAndChecksum()
        let environment = ChannelFixture.environment
        let written = try run(
            binary.path, ["channel", "update-feed", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(written.status == 0, "\(written)")
        let feedURL = fixture.dist.appendingPathComponent("velostream-update.json")
        let bytes = try Data(contentsOf: feedURL)
        let feed = try #require(try JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        #expect(feed["version"] as? String == "1.0.0" && feed["tag"] as? String == "v1.0.0", "\(feed)")
        let targets = try #require(feed["targets"] as? [String: [String: Any]])
        #expect(Set(targets.keys) == Set(ChannelFixture.triples), "\(targets.keys)")
        for (triple, download) in targets {
            let name = try #require(download["archive"] as? String)
            #expect(name.contains(triple))
            #expect(download["url"] as? String == ChannelFixture.baseURL + name)
            #expect(download["sha256"] as? String == (try fixture.sha256sum(name)), "\(name): not its sha256sum")
        }
        // A release asset: listed in SHA256SUMS with the file's own digest.
        #expect(try fixture.sums()["velostream-update.json"] == (try fixture.sha256sum("velostream-update.json")))

        // The same release, the same bytes.
        let again = try run(
            binary.path, ["channel", "update-feed", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(again.status == 0, "\(again)")
        #expect(try Data(contentsOf: feedURL) == bytes)

        // The stock relctl has no such channel and no such plugin on PATH.
        let stock = try relctl(
            ["channel", "update-feed", "--tag", "v1.0.0"], in: fixture.url, environment: environment)
        #expect(stock.status != 0 && stock.stderr.contains("update-feed"), "\(stock)")
    }

    @Test func aChannelSettingItDoesNotKnowIsBadInputNamingIt() throws {
        let binary = try Self.buildExample()
        let fixture = try ChannelFixture(channels: "\n[[channel]]\nname = \"update-feed\"\nfeed = \"x.json\"\n")
        // The stock relctl calls `feed` an unknown key of [[channel]]; the extended one leaves the
        // channel's keys to the channel, so packaging goes on.
        let stock = try relctl(
            ["package", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(stock.status == 2 && stock.stderr.contains("unknown key `feed`"), "\(stock)")
        for step in [["package", "--tag", "v1.0.0"], ["checksum"]] {
            let done = try run(binary.path, step, in: fixture.url, environment: ChannelFixture.environment)
            try #require(done.status == 0, "\(done)")
        }
        let result = try run(
            binary.path, ["channel", "update-feed", "--tag", "v1.0.0"], in: fixture.url,
            environment: ChannelFixture.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("has no setting `feed`; it knows `file`"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent("x.json").path))
    }
}
