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
