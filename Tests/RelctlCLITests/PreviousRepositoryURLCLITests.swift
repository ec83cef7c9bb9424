import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[repository] previous` as a URL (issue 44): the published APT and DNF repositories fetched
/// from a loopback server, checked against the repository key and the indexes' sizes and SHA-256,
/// and extended; apt-get and dnf then install the older and the newer version from the result.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct PreviousRepositoryURLCLITests {
    let dnfTests = DnfRepositoryCLITests()

    /// deb and (signed) rpm packages in an APT and a DNF repository, released as 1.0.0 and
    /// published to a folder a loopback server serves; the project then at 1.1.0 with its
    /// packages built and `previous` naming the server's URL.
    func secondRelease() throws -> (
        LinuxPackageFixture, GPGKey, TemporaryDirectory, LoopbackServer
    ) {
        let (fixture, key) = try dnfTests.project(
            tables: "[[package]]\nformat = \"deb\"\n\n[apt]\nsuite = \"stable\"\n")
        let first = try dnfTests.released(fixture, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/apt dist/dnf \"$OUT\"/", in: fixture.url, environment: ["OUT": published.path])
        let server = try LoopbackServer(serving: published.url)
        _ = try fixture.repository.commit("feat: say more", files: ["VERSION": "1.1.0\n"])
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
        let packaged = try relctl(["linux-package", "--tag", "v1.1.0"], in: fixture.url)
        try #require(packaged.status == 0, "\(packaged)")
        try usePrevious(server.baseURL, in: fixture)
        return (fixture, key, published, server)
    }

    func usePrevious(_ url: String, in fixture: LinuxPackageFixture) throws {
        let config = fixture.url.appendingPathComponent("relctl.toml")
        var text = try String(contentsOf: config, encoding: .utf8)
        text = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("previous = ") }
            .joined(separator: "\n")
        try Data((text + "previous = \"\(url)\"\n").utf8).write(to: config)
    }

    @Test func aPublishedRepositoryURLIsFetchedVerifiedAndExtendedAndBothVersionsInstall() throws {
        let (fixture, key, _, server) = try secondRelease()
        defer { server.stop() }
        let scratch = try TemporaryDirectory(prefix: "relctl-tmpdir")
        let second = try relctl(
            ["repository", "--tag", "v1.1.0"], in: fixture.url, environment: ["TMPDIR": scratch.path])
        try #require(second.status == 0, "\(second)")
        // The fetched copy is gone.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        let packages = try String(
            contentsOf: fixture.dist.appendingPathComponent("apt/dists/stable/main/binary-amd64/Packages"),
            encoding: .utf8)
        #expect(packages.contains("Version: 1.0.0\n") && packages.contains("Version: 1.1.0\n"), "\(packages)")
        let rpms = try FileManager.default.contentsOfDirectory(
            atPath: fixture.dist.appendingPathComponent("dnf/Packages").path)
        #expect(
            Set(rpms) == [
                "hello-1.0.0-1.x86_64.rpm", "hello-1.0.0-1.aarch64.rpm", "hello-1.1.0-1.x86_64.rpm",
                "hello-1.1.0-1.aarch64.rpm",
            ], "\(rpms)")
        let verified = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(verified.status == 0, "\(verified)")

        // apt-get: both versions listed, the older one (a file fetched from the server) installs.
        let aptTests = AptRepositoryCLITests()
        let apt = fixture.dist.appendingPathComponent("apt")
        let source = "deb [signed-by=\(apt.path)/hello-archive-keyring.gpg] copy:\(apt.path) stable main"
        let state = try TemporaryDirectory(prefix: "relctl-apt-state")
        let root = try aptTests.dpkgRoot()
        let update = try aptTests.apt("update", state: state.url, root: root.url, source: source)
        #expect(update.status == 0 && !(update.stdout + update.stderr).contains("W:"), "\(update)")
        let old = try aptTests.apt(
            "install -y --download-only hello=1.0.0", state: state.url, root: root.url, source: source)
        #expect(old.status == 0, "\(old)")
        let archives = state.url.appendingPathComponent("var/cache/apt/archives")
        let installed = try aptTests.install(archives, root: root.url)
        #expect(installed.status == 0, "\(installed)")
        #expect(
            try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.0.0 x86_64-unknown-linux-gnu\n")
        _ = try sh("rm -f var/cache/apt/archives/*.deb", in: state.url)
        let upgrade = try aptTests.apt("upgrade -y --download-only", state: state.url, root: root.url, source: source)
        #expect(upgrade.status == 0, "\(upgrade)")
        #expect(try aptTests.install(archives, root: root.url).status == 0)
        #expect(
            try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.1.0 x86_64-unknown-linux-gnu\n")

        // dnf with gpgcheck and repo_gpgcheck: the same.
        let dnfState = try TemporaryDirectory(prefix: "relctl-dnf-state")
        let dnfRoot = try TemporaryDirectory(prefix: "relctl-dnf-root")
        let listed = try dnfTests.dnf(
            "--showduplicates list hello", state: dnfState.url, root: dnfRoot.url, published: fixture.dist)
        #expect(listed.stdout.contains("1.0.0-1") && listed.stdout.contains("1.1.0-1"), "\(listed)")
        let older = try dnfTests.dnf(
            "install hello-1.0.0", state: dnfState.url, root: dnfRoot.url, published: fixture.dist)
        #expect(older.status == 0, "\(older)")
        #expect(
            try run(dnfRoot.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.0.0 x86_64-unknown-linux-gnu\n")
        let upgraded = try dnfTests.dnf(
            "upgrade hello", state: dnfState.url, root: dnfRoot.url, published: fixture.dist)
        #expect(upgraded.status == 0, "\(upgraded)")
        #expect(
            try run(dnfRoot.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.1.0 x86_64-unknown-linux-gnu\n")

        // Again for the same tag from the same URL: not a byte changes.
        let before = try dnfTests.treeDigests(fixture)
        let again = try relctl(["repository", "--tag", "v1.1.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        #expect(try dnfTests.treeDigests(fixture) == before)
    }

    /// Each fault of the server's copy ends the run with exit 1 naming the file, and leaves dist/apt
    /// and dist/dnf as the run before wrote them.
    @Test func aPreviousRepositoryThatDoesNotCheckOutIsExit1NamingTheFile() throws {
        let (fixture, _, published, server) = try secondRelease()
        defer { server.stop() }
        let before = try dnfTests.treeDigests(fixture)
        let deb = published.url.appendingPathComponent("apt/pool/main/h/hello/hello_1.0.0_amd64.deb")
        let rpm = published.url.appendingPathComponent("dnf/Packages/hello-1.0.0-1.x86_64.rpm")
        let inRelease = published.url.appendingPathComponent("apt/dists/stable/InRelease")
        let faults: [(what: String, script: String, named: [String])] = [
            ("a package the index lists answers 404", "mv \"$DEB\" \"$DEB.away\"", ["hello_1.0.0_amd64.deb", "404"]),
            (
                "a package with one byte changed", "printf X | dd of=\"$RPM\" bs=1 seek=3000 conv=notrunc 2>/dev/null",
                ["hello-1.0.0-1.x86_64.rpm", "SHA-256"]
            ),
            (
                "a package longer than its index says", "printf x >> \"$DEB\"",
                ["hello_1.0.0_amd64.deb", "stopped reading"]
            ),
            (
                "InRelease changed after signing", "sed -i 's/^Suite: stable/Suite: stabl3/' \"$IN\"",
                ["InRelease", "BAD signature"]
            ),
        ]
        for (what, fault, named) in faults {
            let saved = try TemporaryDirectory(prefix: "relctl-saved")
            _ = try sh("cp -a \"$PUB\"/. \"$SAVED\"/", environment: ["PUB": published.path, "SAVED": saved.path])
            let broken = try sh(
                fault,
                environment: ["DEB": deb.path, "RPM": rpm.path, "IN": inRelease.path])
            try #require(broken.status == 0, "\(what): \(broken)")
            let refused = try relctl(["repository", "--tag", "v1.1.0"], in: fixture.url)
            #expect(refused.status == 1, "\(what): \(refused)")
            for name in named { #expect(refused.stderr.contains(name), "\(what): \(name) not in \(refused)") }
            #expect(try dnfTests.treeDigests(fixture) == before, "\(what)")
            _ = try sh(
                "rm -rf \"$PUB\"/* && cp -a \"$SAVED\"/. \"$PUB\"/",
                environment: ["PUB": published.path, "SAVED": saved.path])
        }
        // Restored, the same run goes through.
        let fine = try relctl(["repository", "--tag", "v1.1.0"], in: fixture.url)
        #expect(fine.status == 0, "\(fine)")
    }

    /// A server that sends every request on to another origin (a CDN): followed, with nothing
    /// secret on either hop, and the repository checks out by its signatures whatever served it.
    @Test func aRedirectToAnotherOriginIsFollowedWithoutCredentials() throws {
        let log = try TemporaryDirectory(prefix: "relctl-redirect-log")
        let logFile = log.url.appendingPathComponent("requests")
        let (fixture, _, _, server) = try secondRelease()
        defer { server.stop() }
        let redirector = try LoopbackServer(redirectingTo: server.baseURL, log: logFile)
        defer { redirector.stop() }
        try usePrevious(redirector.baseURL, in: fixture)
        let second = try relctl(
            ["repository", "--tag", "v1.1.0"], in: fixture.url,
            environment: ["GITHUB_TOKEN": "ghp_secret", "RELCTL_REPOSITORY_TOKEN": "secret"])
        #expect(second.status == 0, "\(second)")
        let requests = try String(contentsOf: logFile, encoding: .utf8).split(separator: "\n")
        #expect(requests.contains { $0.contains("/apt/pool/main/h/hello/hello_1.0.0_amd64.deb") }, "\(requests)")
        #expect(requests.contains { $0.contains("/dnf/repodata/repomd.xml") }, "\(requests)")
        #expect(requests.allSatisfy { $0.contains("\"authorization\": null") && $0.contains("\"cookie\": null") })
        let packages = try String(
            contentsOf: fixture.dist.appendingPathComponent("apt/dists/stable/main/binary-amd64/Packages"),
            encoding: .utf8)
        #expect(packages.contains("Version: 1.0.0\n") && packages.contains("Version: 1.1.0\n"), "\(packages)")
    }

    @Test(arguments: [
        ("http://packages.example.com/hello", "plain http"), ("https://user:pw@packages.example.com/", "credentials"),
    ])
    func aURLRelctlDoesNotReadIsExit2BeforeAnyRequest(url: String, reason: String) throws {
        let (fixture, _) = try dnfTests.project()
        _ = try sh("printf 'previous = \"%s\"\\n' \"$URL\" >> relctl.toml", in: fixture.url, environment: ["URL": url])
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
        let packaged = try relctl(["linux-package", "--tag", "v1.0.0"], in: fixture.url)
        try #require(packaged.status == 0, "\(packaged)")
        let refused = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(refused.status == 2 && refused.stderr.contains(url) && refused.stderr.contains(reason), "\(refused)")
    }
}
