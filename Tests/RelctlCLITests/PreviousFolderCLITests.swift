import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[repository] previous` as a folder is a verified source, read like a URL (issue 55, findings
/// 3 and 4): a link in it leading outside (one pool .deb, or pool/ itself) is refused, exit 2,
/// naming it; and its signed indexes are checked with the repository key, every index and
/// package against the signed sizes and hashes, before anything is extended.
@Suite("previous folder", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct PreviousFolderCLITests {
    static let deb = "apt/pool/main/h/hello/hello_1.0.0_amd64.deb"

    /// A released 1.0.0 (dist/apt) copied into a published folder that `previous` names.
    static func published() throws -> (LinuxPackageFixture, TemporaryDirectory) {
        let key = try GPGKey()
        let fixture = try LinuxPackageFixture(packages: AptRepositoryCLITests.packages)
        let first = try AptRepositoryCLITests().released(fixture, key: key, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/apt \"$OUT\"/apt", in: fixture.url, environment: ["OUT": published.path])
        let config = fixture.url.appendingPathComponent("relctl.toml")
        try Data((try String(contentsOf: config, encoding: .utf8) + "previous = \"\(published.path)\"\n").utf8)
            .write(to: config)
        return (fixture, published)
    }

    static func repository(_ fixture: LinuxPackageFixture) throws -> RunResult {
        try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
    }

    @Test func theUntouchedFolderIsExtended() throws {
        let (fixture, _) = try Self.published()
        let result = try Self.repository(fixture)
        #expect(result.status == 0, "\(result)")
    }

    /// Finding 3: the link was read through and copied into dist/apt/pool as a link to an absolute
    /// path on the build machine. The outside file has the very bytes the index lists, so only
    /// the read rule can refuse it.
    @Test func aPoolPackageThatLinksOutsideIsRefused() throws {
        let (fixture, published) = try Self.published()
        let outside = try TemporaryDirectory(prefix: "relctl-outside")
        let copy = outside.url.appendingPathComponent("hello.deb")
        try FileManager.default.moveItem(at: published.url.appendingPathComponent(Self.deb), to: copy)
        try FileManager.default.createSymbolicLink(
            atPath: published.url.appendingPathComponent(Self.deb).path, withDestinationPath: copy.path)
        let result = try Self.repository(fixture)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("hello_1.0.0_amd64.deb") && result.stderr.contains(copy.path), "\(result)")
        let pool = fixture.dist.appendingPathComponent(Self.deb)
        let left = try? FileManager.default.destinationOfSymbolicLink(atPath: pool.path)
        #expect(left == nil, "dist/apt holds no link out: \(left ?? "")")
    }

    @Test func aPoolFolderThatLinksOutsideIsRefused() throws {
        let (fixture, published) = try Self.published()
        let outside = try TemporaryDirectory(prefix: "relctl-outside")
        let moved = outside.url.appendingPathComponent("pool")
        try FileManager.default.moveItem(at: published.url.appendingPathComponent("apt/pool"), to: moved)
        try FileManager.default.createSymbolicLink(
            atPath: published.url.appendingPathComponent("apt/pool").path, withDestinationPath: moved.path)
        let result = try Self.repository(fixture)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("apt/pool") && result.stderr.contains(moved.path), "\(result)")
    }

    /// Finding 4: a stanza and its pool file added without re-signing were extended and then
    /// signed with the project's key. The Packages index no longer matches what InRelease signs.
    @Test func aStanzaAddedWithoutResigningIsRefused() throws {
        let (fixture, published) = try Self.published()
        let packages = published.url.appendingPathComponent("apt/dists/stable/main/binary-amd64/Packages")
        var text = try String(contentsOf: packages, encoding: .utf8)
        let evil = "apt/pool/main/e/evil/evil_6.6.6_amd64.deb"
        let bytes = Data("not a package\n".utf8)
        try FileManager.default.createDirectory(
            at: published.url.appendingPathComponent(evil).deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try bytes.write(to: published.url.appendingPathComponent(evil))
        let sha = try run("sha256sum", [published.url.appendingPathComponent(evil).path]).stdout.prefix(64)
        text +=
            "\nPackage: evil\nVersion: 6.6.6\nArchitecture: amd64\nFilename: \(evil.dropFirst(4))\nSize: \(bytes.count)\nSHA256: \(sha)\n"
        try Data(text.utf8).write(to: packages)
        let result = try Self.repository(fixture)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("binary-amd64/Packages"), "\(result)")
        let written = fixture.dist.appendingPathComponent("apt/dists/stable/main/binary-amd64/Packages")
        #expect((try? String(contentsOf: written, encoding: .utf8))?.contains("evil") != true, "never extended")
    }

    /// The signed index itself changed without re-signing: the signature no longer verifies.
    @Test func anInReleaseChangedWithoutResigningIsRefused() throws {
        let (fixture, published) = try Self.published()
        let inRelease = published.url.appendingPathComponent("apt/dists/stable/InRelease")
        let text = try String(contentsOf: inRelease, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Suite: stable", with: "Suite: stabl3").utf8).write(to: inRelease)
        let result = try Self.repository(fixture)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("InRelease"), "\(result)")
    }

    /// The same for dnf: a repomd.xml changed without re-signing is refused before it is extended.
    @Test func aRepomdChangedWithoutResigningIsRefused() throws {
        let dnfTests = DnfRepositoryCLITests()
        let (fixture, _) = try dnfTests.project()
        let first = try dnfTests.released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/dnf \"$OUT\"/dnf", in: fixture.url, environment: ["OUT": published.path])
        let config = fixture.url.appendingPathComponent("relctl.toml")
        try Data((try String(contentsOf: config, encoding: .utf8) + "previous = \"\(published.path)\"\n").utf8)
            .write(to: config)
        let untouched = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(untouched.status == 0, "\(untouched)")
        let repomd = published.url.appendingPathComponent("dnf/repodata/repomd.xml")
        try Data((try String(contentsOf: repomd, encoding: .utf8) + "<!-- changed -->\n").utf8).write(to: repomd)
        let result = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("repomd.xml"), "\(result)")
    }
}
