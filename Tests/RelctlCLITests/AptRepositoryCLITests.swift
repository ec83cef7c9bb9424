import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl repository`: the signed APT repository, read by gpgv and by apt-get itself with a
/// private configuration and `signed-by`, installed into and upgraded in a scratch dpkg root.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct AptRepositoryCLITests {
    static let packages = """
        [[package]]
        format = "deb"

        [apt]
        suite = "stable"

        [repository]
        signing-key = "keys/repo.asc"

        """

    /// The fixture with its .debs of `version` in dist/ and the repository key in keys/.
    func released(_ fixture: LinuxPackageFixture, key: GPGKey, version: String) throws -> RunResult {
        try FileManager.default.createDirectory(
            at: fixture.url.appendingPathComponent("keys"), withIntermediateDirectories: true)
        try Data(key.secretArmored.utf8).write(to: fixture.url.appendingPathComponent("keys/repo.asc"))
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
        let packaged = try relctl(["linux-package", "--tag", "v\(version)"], in: fixture.url)
        try #require(packaged.status == 0, "\(packaged)")
        return try relctl(["repository", "--tag", "v\(version)"], in: fixture.url)
    }

    /// apt-get with every path under `state` (lists, cache, sources, dpkg status of `root`).
    func apt(_ arguments: String, state: URL, root: URL, source: String) throws -> RunResult {
        let script = """
            set -eu
            mkdir -p etc/apt/sources.list.d etc/apt/preferences.d etc/apt/apt.conf.d etc/apt/trusted.gpg.d \
              var/lib/apt/lists/partial var/cache/apt/archives/partial
            printf '%s\\n' "$SOURCE" > etc/apt/sources.list
            exec apt-get -q -o Dir="$PWD" -o Dir::State::status="$ROOT/var/lib/dpkg/status" \
              -o Dir::Etc::TrustedParts="$PWD/etc/apt/trusted.gpg.d" -o Debug::NoLocking=1 \
              -o APT::Sandbox::User=root -o APT::Architecture=amd64 -o APT::Architectures::=amd64 \
              -o Acquire::Languages=none \(arguments)
            """
        return try sh(script, in: state, environment: ["SOURCE": source, "ROOT": root.path])
    }

    func dpkgRoot() throws -> TemporaryDirectory {
        let root = try TemporaryDirectory(prefix: "relctl-apt-root")
        _ = try sh("mkdir -p var/lib/dpkg/info var/lib/dpkg/updates && : > var/lib/dpkg/status", in: root.url)
        return root
    }

    func install(_ debs: URL, root: URL) throws -> RunResult {
        try sh(
            "dpkg --root=\"$ROOT\" --force-not-root --force-bad-path --log=/dev/null -i \"$DEBS\"/*.deb",
            environment: ["ROOT": root.path, "DEBS": debs.path])
    }

    @Test func aptGetInstallsAndUpgradesFromTheSignedRepositoryAndRefusesATamperedOne() throws {
        let key = try GPGKey()
        let fixture = try LinuxPackageFixture(packages: Self.packages)
        let first = try released(fixture, key: key, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let aptFolder = fixture.dist.appendingPathComponent("apt")
        let suite = aptFolder.appendingPathComponent("dists/stable")

        // gpgv (what apt runs) accepts both signatures with gpg's own export of the key...
        let clear = try run("gpgv", ["--keyring", key.keyring.path, suite.appendingPathComponent("InRelease").path])
        #expect(clear.status == 0, "\(clear)")
        let detached = try run(
            "gpgv",
            [
                "--keyring", key.keyring.path, suite.appendingPathComponent("Release.gpg").path,
                suite.appendingPathComponent("Release").path,
            ])
        #expect(detached.status == 0, "\(detached)")
        // ...and with the keyring relctl wrote for users.
        let ours = aptFolder.appendingPathComponent("hello-archive-keyring.gpg")
        let withOurs = try run("gpgv", ["--keyring", ours.path, suite.appendingPathComponent("InRelease").path])
        #expect(withOurs.status == 0, "\(withOurs)")
        let release = try String(contentsOf: suite.appendingPathComponent("Release"), encoding: .utf8)
        for line in [
            "Suite: stable\n", "Components: main\n", "Architectures: amd64 arm64\n", " main/binary-amd64/Packages.gz\n",
        ] {
            #expect(release.contains(line), "\(line) missing in\n\(release)")
        }

        // Same inputs, same bytes.
        let before = try Data(contentsOf: suite.appendingPathComponent("InRelease"))
        let again = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(again.status == 0, "\(again)")
        #expect(try Data(contentsOf: suite.appendingPathComponent("InRelease")) == before)

        // Published: a folder users add with signed-by; the next release extends it.
        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a \"$APT\" \"$OUT\"/apt", environment: ["APT": aptFolder.path, "OUT": published.path])
        let source =
            "deb [signed-by=\(published.path)/apt/hello-archive-keyring.gpg] copy:\(published.path)/apt stable main"
        let state = try TemporaryDirectory(prefix: "relctl-apt-state")
        let root = try dpkgRoot()
        let update = try apt("update", state: state.url, root: root.url, source: source)
        #expect(update.status == 0 && !update.stdout.contains("W:") && !update.stderr.contains("W:"), "\(update)")
        let download = try apt("install -y --download-only hello", state: state.url, root: root.url, source: source)
        #expect(download.status == 0, "\(download)")
        let archives = state.url.appendingPathComponent("var/cache/apt/archives")
        let installed = try install(archives, root: root.url)
        #expect(installed.status == 0, "\(installed)")
        #expect(
            try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.0.0 x86_64-unknown-linux-gnu\n")

        // Second release, added to the published repository: both versions listed, apt upgrades.
        _ = try fixture.repository.commit(
            "feat: say more",
            files: [
                "VERSION": "1.1.0\n",
                "relctl.toml": try String(
                    contentsOf: fixture.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
                    + "previous = \"\(published.path)\"\n",
            ])
        let second = try released(fixture, key: key, version: "1.1.0")
        try #require(second.status == 0, "\(second)")
        _ = try sh(
            "rm -rf \"$OUT\"/apt && cp -a \"$APT\" \"$OUT\"/apt",
            environment: ["APT": aptFolder.path, "OUT": published.path])
        let packages = try String(
            contentsOf: suite.appendingPathComponent("main/binary-amd64/Packages"), encoding: .utf8)
        #expect(packages.contains("Version: 1.0.0\n") && packages.contains("Version: 1.1.0\n"), "\(packages)")
        let updated = try apt("update", state: state.url, root: root.url, source: source)
        #expect(updated.status == 0, "\(updated)")
        let policy = try sh(
            "apt-cache -o Dir=\"$PWD\" -o Dir::State::status=\"$ROOT/var/lib/dpkg/status\" -o APT::Architecture=amd64 madison hello",
            in: state.url, environment: ["ROOT": root.url.path])
        #expect(policy.stdout.contains("1.0.0") && policy.stdout.contains("1.1.0"), "\(policy)")
        _ = try sh("rm -f var/cache/apt/archives/*.deb", in: state.url)
        let upgrade = try apt("upgrade -y --download-only", state: state.url, root: root.url, source: source)
        #expect(upgrade.status == 0 && upgrade.stdout.contains("hello"), "\(upgrade)")
        let upgraded = try install(archives, root: root.url)
        #expect(upgraded.status == 0, "\(upgraded)")
        #expect(
            try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout
                == "hello 1.1.0 x86_64-unknown-linux-gnu\n")

        // A tampered InRelease (one index hash changed) is refused by gpgv and by apt-get.
        let inRelease = published.url.appendingPathComponent("apt/dists/stable/InRelease")
        let text = try String(contentsOf: inRelease, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Suite: stable", with: "Suite: stabl3").utf8).write(to: inRelease)
        let refused = try run("gpgv", ["--keyring", ours.path, inRelease.path])
        #expect(refused.status != 0, "\(refused)")
        _ = try sh("rm -rf var/lib/apt/lists && mkdir -p var/lib/apt/lists/partial", in: state.url)
        let tampered = try apt("update", state: state.url, root: root.url, source: source)
        #expect(tampered.status != 0 || tampered.stdout.contains("W:") || tampered.stderr.contains("W:"), "\(tampered)")
        #expect((tampered.stdout + tampered.stderr).contains("BADSIG"), "\(tampered)")
    }

    @Test func aPreviousPackageWithOtherBytesIsNeverReplaced() throws {
        let key = try GPGKey()
        let fixture = try LinuxPackageFixture(packages: Self.packages)
        let first = try released(fixture, key: key, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let published = try TemporaryDirectory(prefix: "relctl-published")
        _ = try sh("cp -a dist/apt \"$OUT\"/apt", in: fixture.url, environment: ["OUT": published.path])
        // The published 1.0.0 .deb differs from what this run builds.
        _ = try sh(
            "printf x >> \"$OUT\"/apt/pool/main/h/hello/hello_1.0.0_amd64.deb", environment: ["OUT": published.path])
        try Data(
            (try String(contentsOf: fixture.url.appendingPathComponent("relctl.toml"), encoding: .utf8)
                + "previous = \"\(published.path)\"\n").utf8
        )
        .write(to: fixture.url.appendingPathComponent("relctl.toml"))
        let again = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(again.status == 1, "\(again)")
        #expect(again.stderr.contains("hello_1.0.0_amd64.deb"), "\(again)")
    }

    @Test func aPassphraseProtectedOrMissingKeyIsBadInput() throws {
        let fixture = try LinuxPackageFixture(packages: Self.packages)
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
        let packaged = try relctl(["linux-package", "--tag", "v1.0.0"], in: fixture.url)
        try #require(packaged.status == 0, "\(packaged)")
        let missing = try relctl(["repository", "--tag", "v1.0.0"], in: fixture.url)
        #expect(missing.status == 2 && missing.stderr.contains("keys/repo.asc"), "\(missing)")
    }
}

extension AptRepositoryCLITests {
    @Test func releaseWritesTheRepositoriesAsAStageAndKeepsThemOutOfTheAssets() throws {
        let key = try GPGKey()
        // An rpm without a signing key of its own, in a dnf repository too.
        let fixture = try LinuxPackageFixture(
            packages: Self.packages
                + "url = \"https://packages.example.com/hello\"\n\n[[package]]\nformat = \"rpm\"\n\n[dnf]\n")
        // The key's text in the environment, as CI passes a secret (keys/repo.asc does not exist).
        let released = try relctl(
            ["release", "v1.0.0"], in: fixture.url, environment: ["RELCTL_REPOSITORY_KEY": key.secretArmored])
        try #require(released.status == 0, "\(released)")
        #expect(released.stderr.contains("repository"), "\(released)")
        let inRelease = fixture.dist.appendingPathComponent("apt/dists/stable/InRelease")
        let verified = try run("gpgv", ["--keyring", key.keyring.path, inRelease.path])
        #expect(verified.status == 0, "\(verified)")
        let packages = try String(
            contentsOf: fixture.dist.appendingPathComponent("apt/dists/stable/main/binary-amd64/Packages"),
            encoding: .utf8)
        #expect(packages.contains("Filename: pool/main/h/hello/hello_1.0.0_amd64.deb\n"), "\(packages)")
        // The notes tell users how to add it, with the keyring relctl published.
        let notes = try String(contentsOf: fixture.dist.appendingPathComponent("RELEASE_NOTES.md"), encoding: .utf8)
        #expect(
            notes.contains(
                "echo 'deb [signed-by=/usr/share/keyrings/hello-archive-keyring.gpg] https://packages.example.com/hello/apt stable main' | sudo tee '/etc/apt/sources.list.d/hello.list'\n"
            ), "\(notes)")
        #expect(
            notes.contains(
                "sudo curl -fsSLo '/usr/share/keyrings/hello-archive-keyring.gpg' 'https://packages.example.com/hello/apt/hello-archive-keyring.gpg'\n"
            ), "\(notes)")
        // The .repo file: no rpm signature to check, so no rpm key and gpgcheck=0 (dnf refuses
        // an unsigned rpm under gpgcheck=1); repomd.xml is still signed.
        #expect(
            notes.contains(
                """
                [hello]
                name=hello
                baseurl=https://packages.example.com/hello/dnf
                enabled=1
                gpgcheck=0
                repo_gpgcheck=1
                gpgkey=https://packages.example.com/hello/dnf/RPM-GPG-KEY-hello

                """), "\(notes)")
        // Every key the notes send users to is a file relctl wrote.
        let prefix = "https://packages.example.com/hello/"
        var named: [String] = []
        for line in notes.split(separator: "\n") {
            for word in line.split(whereSeparator: { $0 == " " || $0 == "'" || $0 == "=" })
            where word.hasPrefix(prefix) && (word.contains("RPM-GPG-KEY") || word.hasSuffix("keyring.gpg")) {
                named.append(String(word.dropFirst(prefix.count)))
            }
        }
        #expect(Set(named) == ["apt/hello-archive-keyring.gpg", "dnf/RPM-GPG-KEY-hello"], "\(notes)")
        for path in named {
            #expect(FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent(path).path), "\(path)")
        }
        let sums = try String(contentsOf: fixture.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(
            sums.contains("hello_1.0.0_amd64.deb") && !sums.contains("apt/") && !sums.contains("InRelease"), "\(sums)")
    }
}

extension AptRepositoryCLITests {
    @Test func verifyChecksTheRepositorySignaturesAndIndexes() throws {
        let key = try GPGKey()
        let fixture = try LinuxPackageFixture(packages: Self.packages)
        let first = try released(fixture, key: key, version: "1.0.0")
        try #require(first.status == 0, "\(first)")
        let good = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(good.status == 0 && good.stderr.contains("signatures good"), "\(good)")

        // Another key: refused.
        let stranger = try GPGKey(userID: "Someone Else <else@example.com>")
        let foreign = try relctl(["verify", "--repository-key", stranger.keyring.path], in: fixture.url)
        #expect(foreign.status == 1 && foreign.stderr.contains("not signed by"), "\(foreign)")

        // A package changed after indexing: its Packages entry no longer matches.
        let deb = fixture.dist.appendingPathComponent("apt/pool/main/h/hello/hello_1.0.0_amd64.deb")
        let original = try Data(contentsOf: deb)
        try (original + Data([0])).write(to: deb)
        let changed = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(changed.status == 1 && changed.stderr.contains("hello_1.0.0_amd64.deb"), "\(changed)")
        try original.write(to: deb)

        // The signed text changed: the signature no longer verifies.
        let inRelease = fixture.dist.appendingPathComponent("apt/dists/stable/InRelease")
        let text = try String(contentsOf: inRelease, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Suite: stable", with: "Suite: stabl3").utf8).write(to: inRelease)
        let tampered = try relctl(["verify", "--repository-key", key.keyring.path], in: fixture.url)
        #expect(tampered.status == 1 && tampered.stderr.contains("BAD signature"), "\(tampered)")
    }
}
