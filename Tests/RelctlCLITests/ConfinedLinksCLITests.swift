import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Links out of the repository are never packaged (issue 39, finding 6): a `[[package]] files`
/// entry, a `license-file`, a folder on the way to either, or a `[[chart]]` folder that is a link
/// to a file elsewhere is refused (exit 2, naming the path and the link's target) by `check` and by
/// the command that would have packaged it, and nothing is written. A link that stays inside the
/// project is still followed.
@Suite("links out of the repository", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct ConfinedLinksCLITests {
    /// A project with a prebuilt binary and one `[[package]]` of `format`, `extra` added to it.
    static func project(
        format: String = "deb", extra: String = "", files: [String: String] = [:]
    ) throws
        -> GitRepository
    {
        let repository = try GitRepository()
        let config = """
            [project]
            name = "hello"
            description = "Says hello"
            license = "MIT"
            maintainer = "A Person <a@example.com>"
            [[version]]
            path = "VERSION"
            [build]
            binaries = ["hello"]
            binary-dir = "out"
            [[target]]
            triple = "x86_64-unknown-linux-gnu"
            [[package]]
            format = "\(format)"
            \(extra)

            """
        try repository.commit(
            "feat: hello",
            files: ["relctl.toml": config, "VERSION": "1.0.0\n", "out/hello": "#!/bin/sh\necho hi\n"].merging(files) {
                $1
            })
        _ = try run("chmod", ["+x", repository.url.appendingPathComponent("out/hello").path])
        return repository
    }

    /// A file outside every repository the tests make, standing in for `/etc/shadow`.
    static func secret() throws -> (TemporaryDirectory, String) {
        let outside = try TemporaryDirectory(prefix: "relctl-outside")
        let file = try outside.write("secret.txt", "the secret outside the repository\n")
        return (outside, file.path)
    }

    static func link(_ path: String, in repository: GitRepository, to target: String) throws {
        let url = repository.url.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    /// `check` and `linux-package` both refuse, naming `shown` and `target`; no package is written.
    static func expectRefused(_ repository: GitRepository, shown: String, target: String) throws {
        let check = try relctl(["check"], in: repository.url)
        #expect(check.status == 2, "\(check)")
        #expect(check.stderr.contains(shown) && check.stderr.contains(target), "\(check)")
        let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
        #expect(built.status == 2, "\(built)")
        #expect(built.stderr.contains(shown) && built.stderr.contains(target), "\(built)")
        let left = (try folderNames(repository.url.path + "/pk"))
        #expect(left.filter { $0.hasSuffix(".deb") || $0.hasSuffix(".rpm") }.isEmpty, "written: \(left)")
    }

    @Test func aPackageFileThatLinksOutsideIsRefused() throws {
        let (outside, secret) = try Self.secret()
        defer { outside.remove() }
        for format in ["deb", "rpm"] {
            let repository = try Self.project(
                format: format, extra: #"files = [{ from = "docs/hello.1", to = "/usr/share/man/man1/hello.1" }]"#)
            try Self.link("docs/hello.1", in: repository, to: secret)
            try Self.expectRefused(repository, shown: "docs/hello.1", target: secret)
        }
    }

    @Test func aFolderOnTheWayThatLinksOutsideIsRefused() throws {
        let (outside, secret) = try Self.secret()
        defer { outside.remove() }
        let repository = try Self.project(
            extra: #"files = [{ from = "docs/secret.txt", to = "/usr/share/doc/hello/notes.txt" }]"#)
        // A relative link up and out, so the target is not even absolute.
        let folder = URL(fileURLWithPath: secret).deletingLastPathComponent().path
        try Self.link("docs", in: repository, to: "../" + String(repeating: "../", count: 8) + folder.dropFirst())
        try Self.expectRefused(repository, shown: "docs/secret.txt", target: String(folder.dropFirst()))
    }

    @Test func aLicenseFileThatLinksOutsideIsRefused() throws {
        let (outside, secret) = try Self.secret()
        defer { outside.remove() }
        let named = try Self.project(extra: #"license-file = "COPYING.txt""#)
        try Self.link("COPYING.txt", in: named, to: secret)
        try Self.expectRefused(named, shown: "COPYING.txt", target: secret)

        // The default LICENSE, committed as a link to a file elsewhere, is refused too.
        let unnamed = try Self.project()
        try Self.link("LICENSE", in: unnamed, to: secret)
        let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: unnamed.url)
        #expect(built.status == 2 && built.stderr.contains("LICENSE") && built.stderr.contains(secret), "\(built)")
        #expect(!FileManager.default.fileExists(atPath: unnamed.url.path + "/pk/hello_1.0.0_amd64.deb"))
    }

    @Test func aLinkThatStaysInsideIsStillPackaged() throws {
        let repository = try Self.project(
            extra: #"files = [{ from = "docs/hello.1", to = "/usr/share/man/man1/hello.1" }]"#,
            files: ["man/hello.1": ".TH HELLO 1\n"])
        try Self.link("docs/hello.1", in: repository, to: "../man/hello.1")
        let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
        #expect(built.status == 0, "\(built)")
        let listing = try run("dpkg-deb", ["-c", repository.url.path + "/pk/hello_1.0.0_amd64.deb"])
        #expect(listing.stdout.contains("./usr/share/man/man1/hello.1.gz"), "\(listing)")
    }

    @Test func aChartFolderThatLinksOutsideIsRefused() throws {
        let outside = try TemporaryDirectory(prefix: "relctl-outside-chart")
        defer { outside.remove() }
        _ = try outside.write("Chart.yaml", "apiVersion: v2\nname: velostream\nversion: 1.0.0\nappVersion: \"1.0.0\"\n")
        _ = try outside.write("templates/secret.yaml", "the secret outside the repository\n")
        // A chart-only step needs no archives: the release is the tag.
        let fixture = try ChannelFixture(channels: "\n[[chart]]\npath = \"charts/linked\"\n")
        try FileManager.default.createSymbolicLink(
            atPath: fixture.url.appendingPathComponent("charts/linked").path, withDestinationPath: outside.path)
        let refused = try relctl(
            ["chart", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("charts/linked") && refused.stderr.contains(outside.path), "\(refused)")
        #expect(
            !FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent("velostream-1.0.0.tgz").path))
        let check = try relctl(["check"], in: fixture.url)
        #expect(check.status == 2 && check.stderr.contains("charts/linked"), "\(check)")
    }

    /// A `[[version]]` location that is a link out of the repository (issue 39): neither read
    /// (`check`, `validate-tag`) nor written (`bump --write`); exit 2 naming it and its target.
    @Test(arguments: [
        ("VERSION", "1.0.0\n", ""), ("Cargo.toml", "[package]\nname = \"hello\"\nversion = \"1.0.0\"\n", "cargo"),
    ])
    func aVersionLocationThatLinksOutsideIsRefusedBeforeItIsRead(name: String, text: String, kind: String) throws {
        let outside = try TemporaryDirectory(prefix: "relctl-outside-version")
        let manifest = try outside.write(name, text)
        let repository = try Self.project(
            extra: kind.isEmpty ? "" : "[[version]]\npath = \"\(name)\"\nkind = \"\(kind)\"\n")
        try? FileManager.default.removeItem(at: repository.url.appendingPathComponent(name))
        try Self.link(name, in: repository, to: manifest.path)
        let committed = try sh("git add -A && git commit -qm 'feat: link the manifest'", in: repository.url)
        try #require(committed.status == 0, "\(committed)")
        for arguments in [["check"], ["validate-tag", "v1.0.0"], ["bump", "--write"]] {
            let refused = try relctl(arguments, in: repository.url)
            #expect(refused.status == 2, "\(arguments): \(refused)")
            #expect(
                refused.stderr.contains(name) && refused.stderr.contains(outside.path), "\(arguments): \(refused)")
        }
        #expect(try String(contentsOf: manifest, encoding: .utf8) == text)
    }
}
