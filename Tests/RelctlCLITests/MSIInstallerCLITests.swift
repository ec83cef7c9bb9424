import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[windows] msi = true` (issue 60): the MSI of a Windows target, read back by msitools
/// (`msiinfo`, `msiextract`), the same bytes from two runs, signed with a test CA's key and
/// verified by `osslsigncode verify`. The Windows "binary" is a stand-in file: an MSI does not
/// care what it installs.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct MSIInstallerCLITests {
    static let msi = "demo-v1.0.0-x86_64-pc-windows-msvc.msi"
    static let build =
        #"mkdir -p out/{target} && printf 'MZ stand-in {version} {target}\n' > out/{target}/hello{exe}"#
    static let windows = """

        [windows]
        msi = true

        [[target]]
        triple = "x86_64-pc-windows-msvc"

        """

    func fixture() throws -> ReleaseFixture {
        try ReleaseFixture(buildCommand: Self.build, release: Self.windows)
    }

    /// `msiinfo export MSI TABLE`'s rows (after the three header lines), each split on tabs.
    func table(_ msi: URL, _ name: String) throws -> [[String]] {
        let exported = try run("msiinfo", ["export", msi.path, name])
        try #require(exported.status == 0, "\(exported)")
        // msiinfo ends its lines with CR LF.
        return exported.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").dropFirst(3).map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    func property(_ msi: URL, _ name: String) throws -> String? {
        try table(msi, "Property").first { $0.first == name }?.last
    }

    /// The tag is taken back on both sides, so the same commit can be released again.
    func untag(_ fixture: ReleaseFixture, _ tag: String) throws {
        _ = try fixture.repository.git("tag", "-d", tag)
        _ = try fixture.repository.git("push", "-q", "origin", ":refs/tags/\(tag)")
    }

    @Test func theMSIInstallsUnderProgramFilesPutsItOnPathAndUpgradesAcrossVersions() throws {
        let fixture = try fixture()
        let released = try relctl(["release", "v1.0.0"], in: fixture.url)
        try #require(released.status == 0, "\(released)")
        let msi = fixture.url.appendingPathComponent("dist/\(Self.msi)")
        let bytes = try Data(contentsOf: msi)

        // An artifact of the release: listed in SHA256SUMS and manifest.json.
        let sums = try String(contentsOf: fixture.url.appendingPathComponent("dist/SHA256SUMS"), encoding: .utf8)
        let digest = try run("sha256sum", [msi.path]).stdout.prefix(64)
        #expect(sums.contains("\(digest)  \(Self.msi)\n"), "\(sums)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixture.url.appendingPathComponent("dist/manifest.json"))) as? [String: Any])
        let entries = try #require(manifest["artifacts"] as? [[String: Any]])
        let entry = try #require(entries.first { $0["name"] as? String == Self.msi }, "\(entries)")
        #expect(entry["format"] as? String == "msi" && entry["target"] as? String == "x86_64-pc-windows-msvc")
        #expect(entry["sha256"] as? String == String(digest))

        // The codes, the version and the upgrade rule.
        let upgradeCode = try #require(try property(msi, "UpgradeCode"))
        let productCode = try #require(try property(msi, "ProductCode"))
        #expect(try property(msi, "ProductVersion") == "1.0.0")
        #expect(try property(msi, "ProductName") == "demo")
        #expect(upgradeCode.count == 38 && productCode.count == 38 && upgradeCode != productCode)
        let upgrade = try table(msi, "Upgrade")
        #expect(
            upgrade.contains { $0[0] == upgradeCode && $0[2] == "1.0.0" && $0[4] == "513" },
            "same-version upgrades: \(upgrade)")
        // Installed under ProgramFiles64Folder\demo, and that folder appended to the system PATH.
        #expect(try table(msi, "Directory").contains(["INSTALLFOLDER", "ProgramFiles64Folder", "demo"]))
        #expect(try table(msi, "Environment") == [["PathEntry", "=-*PATH", "[~];[INSTALLFOLDER]", "Binaries"]])
        let sequence = try table(msi, "InstallExecuteSequence")
        #expect(
            sequence.contains { $0[0] == "WriteEnvironmentStrings" }
                && sequence.contains { $0[0] == "RemoveEnvironmentStrings" })
        let unpacked = try TemporaryDirectory(prefix: "relctl-msiextract")
        let extracted = try run("msiextract", ["-C", unpacked.path, msi.path])
        #expect(extracted.status == 0, "\(extracted)")
        let installed = try String(
            contentsOf: unpacked.url.appendingPathComponent("demo/hello.exe"), encoding: .utf8)
        #expect(installed == "MZ stand-in 1.0.0 x86_64-pc-windows-msvc\n")
        // The summary information holds the commit's time and the derived package code, not the clock's.
        let summary = try run("msiinfo", ["suminfo", msi.path])
        #expect(!summary.stdout.contains("Created: " + Self.today()), "\(summary)")

        // The same commit released again (a second later, from a new build): the same bytes.
        let first = try TemporaryDirectory(prefix: "relctl-msi-first")
        try FileManager.default.moveItem(
            at: fixture.url.appendingPathComponent("dist"), to: first.url.appendingPathComponent("dist"))
        try untag(fixture, "v1.0.0")
        _ = try sh("rm -rf out && sleep 1", in: fixture.url)
        let again = try relctl(["release", "v1.0.0"], in: fixture.url)
        try #require(again.status == 0, "\(again)")
        #expect(try Data(contentsOf: msi) == bytes, "two runs wrote different MSI bytes")

        // 1.1.0: the same UpgradeCode, a new ProductCode.
        _ = try fixture.repository.commit("feat: more", files: ["VERSION": "1.1.0\n"])
        _ = try fixture.repository.git("push", "-q", "origin", "main")
        let next = try relctl(["release", "v1.1.0"], in: fixture.url)
        try #require(next.status == 0, "\(next)")
        let newer = fixture.url.appendingPathComponent("dist/demo-v1.1.0-x86_64-pc-windows-msvc.msi")
        #expect(try property(newer, "UpgradeCode") == upgradeCode)
        #expect(try property(newer, "ProductCode") != productCode)
        #expect(try property(newer, "ProductVersion") == "1.1.0")
    }

    static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE MMM d"
        return formatter.string(from: Date())
    }

    @Test func dryRunPlansTheMSI() throws {
        let fixture = try fixture()
        let planned = try relctl(["release", "v1.0.0", "--dry-run", "--json"], in: fixture.url)
        try #require(planned.status == 0, "\(planned)")
        #expect(planned.stdout.contains("\"msi\""), "\(planned.stdout)")
        #expect(planned.stdout.contains(Self.msi), "\(planned.stdout)")
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("dist/\(Self.msi)").path))
    }

    func schema(_ kind: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/winget/manifest.\(kind).1.6.0.json").path
    }

    @Test func wingetInstallsTheMSIInsteadOfTheZip() throws {
        let fixture = try ReleaseFixture(
            buildCommand: Self.build,
            release: Self.windows
                + "\n[winget]\nidentifier = \"Acme.Demo\"\nrepository = \"/nonexistent/winget-pkgs.git\"\n")
        let released = try relctl(
            ["release", "v1.0.0"], in: fixture.url,
            environment: ["INSTALLER_BASE_URL": "https://downloads.example.com/demo/v1.0.0/"])
        try #require(released.status == 0, "\(released)")
        let folder = fixture.url.appendingPathComponent("dist/winget/manifests/a/Acme/Demo/1.0.0")
        for (file, kind) in [
            ("Acme.Demo.yaml", "version"), ("Acme.Demo.installer.yaml", "installer"),
            ("Acme.Demo.locale.en-US.yaml", "defaultLocale"),
        ] {
            let checked = try run(
                "check-jsonschema", ["--schemafile", schema(kind), folder.appendingPathComponent(file).path])
            #expect(checked.status == 0, "\(file): \(checked)")
        }
        let msi = fixture.url.appendingPathComponent("dist/\(Self.msi)")
        let parsed = try run(
            "python3",
            [
                "-c",
                "import sys, yaml, json; print(json.dumps(yaml.safe_load(open(sys.argv[1]))['Installers']))",
                folder.appendingPathComponent("Acme.Demo.installer.yaml").path,
            ])
        try #require(parsed.status == 0, "\(parsed)")
        let installers = try #require(
            try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [[String: Any]])
        #expect(installers.count == 1, "\(installers)")
        let installer = try #require(installers.first)
        let digest = try run("sha256sum", [msi.path]).stdout.prefix(64).uppercased()
        #expect(installer["InstallerType"] as? String == "wix")
        #expect(installer["InstallerUrl"] as? String == "https://downloads.example.com/demo/v1.0.0/\(Self.msi)")
        #expect(installer["InstallerSha256"] as? String == digest)
        #expect(installer["ProductCode"] as? String == (try property(msi, "ProductCode")))
        let entries = try #require(installer["AppsAndFeaturesEntries"] as? [[String: Any]])
        #expect(entries.first?["UpgradeCode"] as? String == (try property(msi, "UpgradeCode")))
    }

    /// A PATH holding every program of /usr/bin and /bin but `wixl`.
    func pathWithoutWixl() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix: "relctl-no-wixl")
        let linked = try sh(
            #"for dir in /usr/local/bin /usr/bin /bin; do for f in "$dir"/*; do n=$(basename "$f"); [ "$n" = wixl ] || [ -e "$0/$n" ] || ln -s "$f" "$0/$n"; done; done"#
                .replacingOccurrences(of: "$0", with: folder.path))
        try #require(linked.status == 0, "\(linked)")
        return folder
    }

    @Test func missingWixlIsNamedByCheckAndStopsTheReleaseBeforeAnything() throws {
        let fixture = try fixture()
        let bin = try pathWithoutWixl()
        let checked = try relctl(["check"], in: fixture.url, environment: ["PATH": bin.path])
        #expect(checked.status == 2, "\(checked)")
        #expect(
            checked.stderr.contains("`wixl` is not on PATH") && checked.stderr.contains("apt-get install wixl"),
            "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: fixture.url, environment: ["PATH": bin.path])
        #expect(released.status == 2, "\(released)")
        #expect(released.stderr.contains("`wixl` is not on PATH"), "\(released)")
        #expect(try fixture.localTags().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.url.appendingPathComponent("dist/\(Self.msi)").path))
        // With wixl on PATH, check passes.
        let ok = try relctl(["check"], in: fixture.url)
        #expect(ok.status == 0, "\(ok)")
    }

    /// With a Windows key, the executable inside is signed by relctl (AuthenticodeSigner) before it
    /// is packed, and the MSI around it by osslsigncode: both verify with the test CA.
    @Test func aSigningKeySignsTheMSIAndOsslsigncodeVerifiesIt() throws {
        let scratch = try TemporaryDirectory(prefix: "relctl-codesign")
        let keys = try AuthenticodeFixture(in: scratch.url.appendingPathComponent("keys"))
        let program = try keys.program("hello")
        // The Windows target gets the mingw-w64 program; the others the usual stand-in.
        let build =
            #"mkdir -p out/{target} && case {target} in *windows*) cp "# + program.path
            + #" out/{target}/hello.exe ;; *) printf 'stand-in\n' > out/{target}/hello ;; esac"#
        let fixture = try ReleaseFixture(
            buildCommand: build,
            release: Self.windows)
        let environment = [
            "RELCTL_WINDOWS_KEY": keys.signingKey.path, "RELCTL_WINDOWS_KEY_PASSWORD": AuthenticodeFixture.password,
        ]
        let released = try relctl(["release", "v1.0.0"], in: fixture.url, environment: environment)
        try #require(released.status == 0, "\(released)")
        let msi = fixture.url.appendingPathComponent("dist/\(Self.msi)")
        let verified = try keys.verify(msi)
        #expect(verified.status == 0 && verified.stdout.contains("Signature verification: ok"), "\(verified)")
        // The executable the MSI installs is the signed one.
        let unpacked = try TemporaryDirectory(prefix: "relctl-msiextract")
        let extracted = try run("msiextract", ["-C", unpacked.path, msi.path])
        #expect(extracted.status == 0, "\(extracted)")
        let installed = try keys.verify(unpacked.url.appendingPathComponent("demo/hello.exe"))
        #expect(installed.status == 0 && installed.stdout.contains("Signature verification: ok"), "\(installed)")
        // SHA256SUMS lists the signed bytes, and msitools still reads the signed MSI.
        let digest = try run("sha256sum", [msi.path]).stdout.prefix(64)
        let sums = try String(contentsOf: fixture.url.appendingPathComponent("dist/SHA256SUMS"), encoding: .utf8)
        #expect(sums.contains("\(digest)  \(Self.msi)\n"), "\(sums)")
        #expect(try property(msi, "ProductVersion") == "1.0.0")
        // A wrong password is bad input (exit 2) named in the preflight: no tag, no MSI.
        let other = try ReleaseFixture(
            buildCommand: build,
            release: Self.windows)
        let refused = try relctl(
            ["release", "v1.0.0"], in: other.url,
            environment: ["RELCTL_WINDOWS_KEY": keys.signingKey.path, "RELCTL_WINDOWS_KEY_PASSWORD": "wrong"])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("RELCTL_WINDOWS_KEY_PASSWORD"), "\(refused)")
        #expect(try other.localTags().isEmpty, "a failed release left its tag")
        #expect(!FileManager.default.fileExists(atPath: other.url.appendingPathComponent("dist/\(Self.msi)").path))
    }
}
