import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[aur]`: the `{project}-bin` PKGBUILD and .SRCINFO, judged by makepkg itself (run as an
/// unprivileged user, as makepkg requires).
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct AurChannelCLITests {
    /// A description bash would expand if it were not quoted.
    static let hostile = "Streaming 'SQL' $(touch /tmp/relctl-aur-pwned) `id` engine"

    @Test func srcinfoIsWhatMakepkgPrintsForThePkgbuild() throws {
        let fixture = try ChannelFixture(
            channels: """

                [aur]
                repository = "/nonexistent/aur.git"
                description = "\(Self.hostile.replacingOccurrences(of: "\\", with: "\\\\"))"
                license = "Apache-2.0"

                """)
        try fixture.packageAndChecksum()
        let written = try relctl(
            ["channel", "aur", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        try #require(written.status == 0, "\(written)")
        let pkgbuild = try String(contentsOf: fixture.dist.appendingPathComponent("aur/PKGBUILD"), encoding: .utf8)
        let srcinfo = try String(contentsOf: fixture.dist.appendingPathComponent("aur/.SRCINFO"), encoding: .utf8)

        // makepkg refuses to run as root: a folder the unprivileged user owns.
        let work = try TemporaryDirectory(prefix: "relctl-aur")
        try Data(pkgbuild.utf8).write(to: work.url.appendingPathComponent("PKGBUILD"))
        let prepared = try sh("chown -R nobody \"$DIR\" && chmod 755 \"$DIR\"", environment: ["DIR": work.path])
        try #require(prepared.status == 0, "\(prepared)")
        let printed = try sh(
            "cd \"$DIR\" && runuser -u nobody -- env HOME=\"$DIR\" makepkg --printsrcinfo",
            environment: ["DIR": work.path])
        #expect(printed.status == 0, "\(printed)")
        #expect(printed.stdout == srcinfo, "makepkg --printsrcinfo:\n\(printed.stdout)\nrelctl:\n\(srcinfo)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/relctl-aur-pwned"))

        let sums = try fixture.sums()
        let musl = "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz"
        let arm = "velostream-v1.0.0-aarch64-unknown-linux-gnu.tar.gz"
        #expect(srcinfo.contains("\tsha256sums_x86_64 = \(try #require(sums[musl]))\n"), "\(srcinfo)")
        #expect(srcinfo.contains("\tsha256sums_aarch64 = \(try #require(sums[arm]))\n"), "\(srcinfo)")
        #expect(
            srcinfo.contains("\tsource_x86_64 = velostream-1.0.0-x86_64.tar.gz::\(ChannelFixture.baseURL)\(musl)\n"),
            "\(srcinfo)")
        #expect(
            srcinfo.hasPrefix("pkgbase = velostream-bin\n") && srcinfo.contains("\tprovides = velostream\n"),
            "\(srcinfo)")
        #expect(srcinfo.contains("\tpkgdesc = \(Self.hostile)\n"), "\(srcinfo)")
    }
}

extension AurChannelCLITests {
    /// `--publish` to the package's git repository (a bare one, empty as a new AUR package's is):
    /// one commit holding the two files, and publishing the same release again commits nothing.
    /// `[aur]` sets neither description nor license: `[project]`'s are used.
    @Test func publishCommitsOnceToTheAurRepositoryWithProjectMetadata() throws {
        let aur = try TemporaryDirectory(prefix: "relctl-aur-remote")
        let made = try run("git", ["init", "-q", "--bare", "-b", "master", aur.path])
        try #require(made.status == 0, "\(made)")
        let fixture = try ChannelFixture(channels: "\n[aur]\nrepository = \"\(aur.path)\"\n")
        let config = fixture.url.appendingPathComponent("relctl.toml")
        try Data(
            try String(contentsOf: config, encoding: .utf8).replacingOccurrences(
                of: "name = \"velostream\"\n",
                with:
                    "name = \"velostream\"\ndescription = \"\"\"Streaming SQL engine.\nSecond line.\"\"\"\nlicense = \"MPL-2.0\"\n"
            ).utf8
        ).write(to: config)
        try fixture.packageAndChecksum()
        var environment = ChannelFixture.environment
        environment["GIT_CONFIG_GLOBAL"] = "/dev/null"
        let published = try relctl(
            ["channel", "aur", "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
        try #require(published.status == 0, "\(published)")

        #expect(try run("git", ["-C", aur.path, "rev-list", "--count", "master"]).stdout == "1\n")
        let listed = try run("git", ["-C", aur.path, "ls-tree", "--name-only", "master"])
        #expect(listed.stdout == ".SRCINFO\nPKGBUILD\n", "\(listed)")
        let srcinfo = try run("git", ["-C", aur.path, "show", "master:.SRCINFO"]).stdout
        #expect(
            srcinfo == (try String(contentsOf: fixture.dist.appendingPathComponent("aur/.SRCINFO"), encoding: .utf8)))
        #expect(srcinfo.contains("\tpkgdesc = Streaming SQL engine.\n"), "\(srcinfo)")
        #expect(srcinfo.contains("\tlicense = MPL-2.0\n"), "\(srcinfo)")
        let pkgbuild = try run("git", ["-C", aur.path, "show", "master:PKGBUILD"]).stdout
        #expect(
            pkgbuild.contains("pkgdesc='Streaming SQL engine.'\n") && pkgbuild.contains("license=('MPL-2.0')\n"),
            "\(pkgbuild)")
        let head = try run("git", ["-C", aur.path, "rev-parse", "master"]).stdout

        let again = try relctl(
            ["channel", "aur", "--tag", "v1.0.0", "--publish"], in: fixture.url, environment: environment)
        #expect(again.status == 0 && again.stderr.contains("already has"), "\(again)")
        #expect(
            try run("git", ["-C", aur.path, "rev-parse", "master"]).stdout == head, "a second publish committed again")
        #expect(try run("git", ["-C", aur.path, "rev-list", "--count", "--all"]).stdout == "1\n")
    }
}
