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

/// `[[package]]` .deb and .rpm files, judged by the distributions' own tools: dpkg-deb, dpkg
/// (installing into a temporary root), lintian, rpm (query, digest check, install into a
/// temporary root) and rpmlint. Serialized: lintian and rpmlint each take seconds of CPU.
@Suite(.serialized, .timeLimit(.minutes(60)), .removesTemporaries) struct LinuxPackageCLITests {
    func built(_ fixture: LinuxPackageFixture) throws {
        let build = try relctl(["build"], in: fixture.url)
        try #require(build.status == 0, "\(build)")
    }

    func package(_ fixture: LinuxPackageFixture, _ extra: [String] = []) throws -> RunResult {
        try built(fixture)
        return try relctl(["linux-package", "--tag", "v1.0.0"] + extra, in: fixture.url)
    }

    /// A fresh dpkg database under a temporary root, the package installed into it.
    func installDeb(_ path: URL) throws -> (TemporaryDirectory, RunResult) {
        let root = try TemporaryDirectory(prefix: "relctl-dpkg-root")
        _ = try sh("mkdir -p var/lib/dpkg/info var/lib/dpkg/updates && : > var/lib/dpkg/status", in: root.url)
        let result = try run(
            "dpkg", ["--root=\(root.path)", "--force-not-root", "--force-bad-path", "--log=/dev/null", "-i", path.path])
        return (root, result)
    }

    func installRpm(_ path: URL) throws -> (TemporaryDirectory, RunResult) {
        let root = try TemporaryDirectory(prefix: "relctl-rpm-root")
        let initdb = try run("rpm", ["--root", root.path, "--initdb"])
        #expect(initdb.status == 0, "\(initdb)")
        let result = try run("rpm", ["--root", root.path, "-i", "--nodeps", "--noscripts", path.path])
        return (root, result)
    }

    @Test func debIsReadByDpkgInstallsRunsAndPassesLintian() throws {
        let fixture = try LinuxPackageFixture()
        let packaged = try package(fixture)
        #expect(packaged.status == 0, "\(packaged)")
        let deb = fixture.dist.appendingPathComponent(LinuxPackageFixture.deb)
        #expect(
            FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent(LinuxPackageFixture.debARM).path)
        )
        // No package for macOS.
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.dist.path).sorted()
        #expect(
            names
                == [
                    LinuxPackageFixture.rpm, LinuxPackageFixture.rpmARM, LinuxPackageFixture.deb,
                    LinuxPackageFixture.debARM,
                ].sorted(), "\(names)")

        let info = try run("dpkg-deb", ["-I", deb.path])
        #expect(info.status == 0, "\(info)")
        for field in [
            "Package: hello", "Version: 1.0.0", "Architecture: amd64", "Maintainer: Test User <test@example.com>",
            "Installed-Size: ", "Section: utils", "Homepage: https://example.com/hello",
            "Description: Says hello from a release\n",
            "  A stand-in program that prints its version and target.\n  .\n",
        ] {
            #expect(info.stdout.contains(field), "\(field) missing in\n\(info.stdout)")
        }
        let listing = try run("dpkg-deb", ["-c", deb.path])
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains("-rwxr-xr-x root/root"), "\(listing.stdout)")
        for path in ["./usr/bin/hello", "./usr/share/doc/hello/copyright", "./usr/share/doc/hello/changelog.gz"] {
            #expect(listing.stdout.contains(path), "\(path) missing in\n\(listing.stdout)")
        }
        #expect(!listing.stdout.contains("/usr/local"))

        // dpkg checks the md5sums and the control file as it installs.
        let (root, installed) = try installDeb(deb)
        #expect(installed.status == 0, "\(installed)")
        let ran = try run(root.url.appendingPathComponent("usr/bin/hello").path, [])
        #expect(ran.stdout == "hello 1.0.0 x86_64-unknown-linux-gnu\n", "\(ran)")
        let verified = try run("dpkg", ["--root=\(root.path)", "--verify", "hello"])
        #expect(verified.status == 0 && verified.stdout.isEmpty, "\(verified)")

        // The changelog is the release notes, in a format dpkg-parsechangelog reads.
        let changelog = try sh(
            "zcat \(root.url.path)/usr/share/doc/hello/changelog.gz > changelog && dpkg-parsechangelog -l changelog",
            in: root.url)
        #expect(changelog.status == 0, "\(changelog)")
        #expect(changelog.stdout.contains("Version: 1.0.0"), "\(changelog.stdout)")
        #expect(
            changelog.stdout.contains("say hello") && changelog.stdout.contains("cli: exit cleanly"),
            "\(changelog.stdout)")
        let copyright = try String(
            contentsOf: root.url.appendingPathComponent("usr/share/doc/hello/copyright"), encoding: .utf8)
        #expect(copyright.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"))
        #expect(copyright.contains("License: Expat\n MIT License\n .\n Copyright (c) 2026 Test User\n"), "\(copyright)")
        #expect(copyright.contains("Copyright: 2026 Test User"), "\(copyright)")

        // lintian judged it (exit 0, nothing on stderr) and found no error; warnings and info are
        // listed in docs/linux-packages.md.
        let lintian = try LintianVerdict.of(deb)
        #expect(lintian.errorTags.isEmpty && lintian.output.status == 0, "\(lintian)")
    }

    @Test func lintianWouldFlagTheStaticBinaryWithoutTheShippedOverride() throws {
        let fixture = try LinuxPackageFixture(binary: .static)
        let packaged = try package(fixture, ["--format", "deb"])
        #expect(packaged.status == 0, "\(packaged)")
        let deb = fixture.dist.appendingPathComponent(LinuxPackageFixture.deb)
        let listing = try run("dpkg-deb", ["-c", deb.path])
        #expect(listing.stdout.contains("./usr/share/lintian/overrides/hello"), "\(listing.stdout)")
        let lintian = try LintianVerdict.of(deb)
        #expect(lintian.errorTags.isEmpty && lintian.output.status == 0, "\(lintian)")
        #expect(lintian.output.stdout.contains("statically-linked-binary") == false, "\(lintian)")
        let (root, installed) = try installDeb(deb)
        #expect(installed.status == 0, "\(installed)")
        #expect(try run(root.url.appendingPathComponent("usr/bin/hello").path, []).stdout == "hello 1.0.0 compiled\n")

        // The same package rebuilt without the override: lintian does raise the tag, so the
        // override is what keeps the package clean (and it is not an unused override).
        let unpacked = try TemporaryDirectory(prefix: "relctl-deb-raw")
        let rebuilt = try sh(
            """
            dpkg-deb -R \(deb.path) tree && rm tree/usr/share/lintian/overrides/hello && \
            sed -i '/lintian\\/overrides/d' tree/DEBIAN/md5sums && dpkg-deb -b tree without.deb >/dev/null
            """, in: unpacked.url)
        try #require(rebuilt.status == 0, "\(rebuilt)")
        let bare = try LintianVerdict.of(unpacked.url.appendingPathComponent("without.deb"))
        #expect(bare.errorTags == ["statically-linked-binary"] && bare.output.status == 2, "\(bare)")
    }

    @Test func rpmIsReadByRpmPassesItsDigestsInstallsAndPassesRpmlint() throws {
        // A dynamically linked ELF program, as a glibc build makes (rpmlint wants a binary in an
        // arch package, and errs on static ones, for which rpm has no in-package override).
        let fixture = try LinuxPackageFixture(binary: .dynamic)
        let packaged = try package(fixture, ["--format", "rpm", "--target", "x86_64-*"])
        #expect(packaged.status == 0, "\(packaged)")
        let rpm = fixture.dist.appendingPathComponent(LinuxPackageFixture.rpm)
        #expect(
            !FileManager.default.fileExists(
                atPath: fixture.dist.appendingPathComponent(LinuxPackageFixture.rpmARM).path))

        let info = try run("rpm", ["-qip", rpm.path])
        #expect(info.status == 0, "\(info)")
        for field in [
            "Name        : hello", "Version     : 1.0.0", "Release     : 1", "Architecture: x86_64",
            "License     : MIT", "URL         : https://example.com/hello", "Summary     : Says hello from a release\n",
            "Build Host  : relctl", "A stand-in program that prints its version and target.",
            "Source RPM  : hello-1.0.0-1.src.rpm",
        ] {
            #expect(info.stdout.contains(field), "\(field) missing in\n\(info.stdout)")
        }
        let files = try run("rpm", ["-qlvp", rpm.path])
        #expect(files.status == 0, "\(files)")
        #expect(files.stdout.contains("-rwxr-xr-x    1 root     root"), "\(files.stdout)")
        #expect(files.stdout.contains("/usr/bin/hello") && files.stdout.contains("/usr/share/doc/hello/copyright"))
        #expect(!files.stdout.contains("/usr/bin\n"), "the package must not own /usr/bin")
        let changelog = try run("rpm", ["-qp", "--changelog", rpm.path])
        #expect(changelog.stdout.contains("- say hello"), "\(changelog)")

        let checked = try run("rpm", ["-Kv", rpm.path])
        #expect(checked.status == 0, "\(checked)")
        #expect(checked.stdout.contains("Header SHA256 digest: OK"), "\(checked.stdout)")
        #expect(checked.stdout.contains("Payload SHA256 digest: OK"), "\(checked.stdout)")

        let (root, installed) = try installRpm(rpm)
        #expect(installed.status == 0, "\(installed)")
        let ran = try run(root.url.appendingPathComponent("usr/bin/hello").path, [])
        #expect(ran.stdout == "hello 1.0.0 compiled\n", "\(ran)")
        let verified = try run("rpm", ["--root", root.path, "-V", "hello"])
        #expect(verified.status == 0, "\(verified)")

        // The one error left is the missing OpenPGP signature: this table has no `signing-key`
        // (unsigned is the default; RpmSigningCLITests signs, docs/linux-packages.md).
        let lint = try run("rpmlint", [rpm.path])
        let lintErrors = lint.stdout.split(whereSeparator: \.isNewline).filter { $0.contains(": E: ") }
        #expect(lintErrors.map { $0.components(separatedBy: ": E: ")[1] } == ["no-signature"], "\(lint)")
        #expect(lint.stdout.contains(" 1 errors"), "\(lint)")

        // A one-byte change in the payload fails the digest check (the check above is real).
        var bytes = try Data(contentsOf: rpm)
        bytes[bytes.count - 20] ^= 0xFF
        let tampered = fixture.url.appendingPathComponent("tampered.rpm")
        try bytes.write(to: tampered)
        let tamperedCheck = try run("rpm", ["-K", tampered.path])
        #expect(
            tamperedCheck.status == 1 && tamperedCheck.stdout.contains("NOT OK"),
            "rpm -K must reject the changed payload: \(tamperedCheck)")
    }

    @Test func packagesAreByteIdenticalFromAnotherPathAndUmask() throws {
        let first = try LinuxPackageFixture()
        let elsewhere = try TemporaryDirectory(prefix: "relctl-other-place-with-a-longer-name")
        let second = try LinuxPackageFixture(directory: elsewhere)
        #expect(try package(first).status == 0)
        try built(second)
        let again = try sh(
            "umask 077 && TZ=Asia/Tokyo LC_ALL=C \"$RELCTL\" linux-package --tag v1.0.0", in: second.url,
            environment: ["RELCTL": relctlBinary.path])
        #expect(again.status == 0, "\(again)")
        for name in [
            LinuxPackageFixture.deb, LinuxPackageFixture.debARM, LinuxPackageFixture.rpm, LinuxPackageFixture.rpmARM,
        ] {
            let a = try Data(contentsOf: first.dist.appendingPathComponent(name))
            let b = try Data(contentsOf: second.dist.appendingPathComponent(name))
            #expect(a == b, "\(name) differs between \(first.url.path) and \(second.url.path)")
        }
    }

    @Test func releaseListsThePackagesInSHA256SUMSAndChecksumMergesOnlyThisRelease() throws {
        let fixture = try LinuxPackageFixture()
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        #expect(released.status == 0, "\(released)")
        let sums = try String(contentsOf: fixture.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        for name in [
            LinuxPackageFixture.deb, LinuxPackageFixture.debARM, LinuxPackageFixture.rpm, LinuxPackageFixture.rpmARM,
        ] {
            #expect(sums.contains("  \(name)\n"), "\(name) missing in\n\(sums)")
        }
        let check = try sh("sha256sum -c SHA256SUMS", in: fixture.dist)
        #expect(check.status == 0, "\(check)")
        // manifest.json lists archives only: installers pick archives from it.
        let manifest = try #require(try ReleaseManifest.read(in: fixture.dist))
        #expect(manifest.artifacts.allSatisfy { $0.name.hasSuffix(".tar.gz") }, "\(manifest.artifacts)")

        // CI's merge: the folder also holds an older release's package, which is not listed.
        try Data("old".utf8).write(to: fixture.dist.appendingPathComponent("hello_0.9.0_amd64.deb"))
        let merged = try relctl(["checksum", "dist"], in: fixture.url)
        #expect(merged.status == 0, "\(merged)")
        let rewritten = try String(contentsOf: fixture.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        #expect(rewritten == sums, "\(rewritten)")
        #expect(!rewritten.contains("0.9.0"))
    }

    @Test func checkNamesWhatAPackageIsMissing() throws {
        let fixture = try LinuxPackageFixture(metadata: "homepage = \"https://example.com/hello\"")
        let checked = try relctl(["check"], in: fixture.url)
        #expect(checked.status == 2, "\(checked)")
        for key in ["`description`", "`license`", "`maintainer`"] {
            #expect(checked.stderr.contains(key), "\(key) not named in \(checked.stderr)")
        }
        #expect(checked.stderr.contains("relctl.toml:"), "\(checked.stderr)")

        let unknown = try LinuxPackageFixture(packages: "[[package]]\nformat = \"apk\"\n")
        let refused = try relctl(["check"], in: unknown.url)
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.stderr.contains("unknown package format `apk`") && refused.stderr.contains("deb, rpm"),
            "\(refused.stderr)")

        // A table's values override [project]'s, so a complete table passes.
        let overriding = try LinuxPackageFixture(
            metadata: "",
            packages: """
                [[package]]
                format = "deb"
                description = "Says hello"
                license = "Apache-2.0"
                maintainer = "Someone <someone@example.com>"
                """)
        let passed = try relctl(["check"], in: overriding.url)
        #expect(passed.status == 0, "\(passed)")
    }

    @Test func theGeneratedWorkflowPackagesInTheLinuxBuildJobsAndUploadsThePackages() throws {
        let fixture = try LinuxPackageFixture()
        let generated = try relctl(["ci", "generate"], in: fixture.url)
        #expect(generated.status == 0, "\(generated)")
        let workflow = try fixture.repository.directory.read(".github/workflows/release.yml")
        #expect(
            workflow.contains(
                """
                      - name: Linux packages
                        if: 'contains(fromJSON(''["aarch64-unknown-linux-gnu","x86_64-unknown-linux-gnu"]''), matrix.target)'
                        run: relctl linux-package --tag "$TAG" --target "$TARGET"
                """), "\(workflow)")
        #expect(workflow.contains("            dist/*.deb\n            dist/*.rpm\n"))
        let linted = try run("actionlint", [fixture.url.appendingPathComponent(".github/workflows/release.yml").path])
        #expect(linted.status == 0, "\(linted)")
    }

    @Test func configuredFilesShipAManualPageGzippedAndACompletion() throws {
        let files = """
            files = [
                { from = "docs/hello.1", to = "/usr/share/man/man1/hello.1" },
                { from = "completions/hello.bash", to = "/usr/share/bash-completion/completions/hello" },
            ]
            """
        let fixture = try LinuxPackageFixture(
            packages: "[[package]]\nformat = \"deb\"\n\(files)\n[[package]]\nformat = \"rpm\"\n\(files)\n")
        let packaged = try package(fixture, ["--target", "x86_64-*"])
        #expect(packaged.status == 0, "\(packaged)")
        let deb = fixture.dist.appendingPathComponent(LinuxPackageFixture.deb)
        let listing = try run("dpkg-deb", ["-c", deb.path])
        #expect(
            listing.stdout.contains("-rw-r--r-- root/root")
                && listing.stdout.contains("./usr/share/man/man1/hello.1.gz"))
        #expect(listing.stdout.contains("./usr/share/bash-completion/completions/hello"), "\(listing.stdout)")
        let lintian = try LintianVerdict.of(deb)
        #expect(lintian.errorTags.isEmpty && lintian.output.status == 0, "\(lintian)")
        // The manual page lintian asked for is there, and readable by man.
        #expect(!lintian.output.stdout.contains("no-manual-page"), "\(lintian)")
        let (root, installed) = try installDeb(deb)
        #expect(installed.status == 0, "\(installed)")
        let manual = try sh("zcat usr/share/man/man1/hello.1.gz", in: root.url)
        #expect(manual.stdout == LinuxPackageFixture.manual, "\(manual)")

        let docs = try run("rpm", ["-qdp", fixture.dist.appendingPathComponent(LinuxPackageFixture.rpm).path])
        #expect(docs.stdout.contains("/usr/share/man/man1/hello.1.gz"), "\(docs)")

        let outside = try LinuxPackageFixture(
            packages:
                "[[package]]\nformat = \"deb\"\nfiles = [{ from = \"docs/hello.1\", to = \"/usr/local/share/man/man1/hello.1\" }]\n"
        )
        let refused = try relctl(["check"], in: outside.url)
        #expect(refused.status == 2 && refused.stderr.contains("not /usr/local/"), "\(refused)")

        // A source that is not there is named by `check`, before anything is built.
        let missing = try LinuxPackageFixture(
            packages:
                "[[package]]\nformat = \"rpm\"\nfiles = [{ from = \"docs/gone.1\", to = \"/usr/share/man/man1/gone.1\" }]\n"
        )
        let checked = try relctl(["check"], in: missing.url)
        #expect(
            checked.status != 0 && checked.stderr.contains("names `docs/gone.1`, which is not a file"), "\(checked)")
    }
}
