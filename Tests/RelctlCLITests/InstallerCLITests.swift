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

/// The generated installer, run for real under dash and `bash --posix` against a loopback
/// http.server serving a dist/ made by relctl (package, checksum, sign, installer).
/// Serialized: each test blocks a thread for seconds (key generation, scrypt, servers), and
/// several at once would starve the cooperative pool the async tests of the suite need.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct InstallerCLITests {
    static let signConfig = """

        [sign]
        minisign-key = "keys/release.key"
        minisign-public-key = "keys/release.pub"

        [installer]
        enabled = true

        """

    /// A signed release with its installers; `targets` limits what is packaged.
    func release(
        targets: [String] = [
            PackagingFixture.linuxGNU, PackagingFixture.linuxMusl, PackagingFixture.linuxARM, PackagingFixture.windows,
        ]
    ) throws -> PackagingFixture {
        let fixture = try PackagingFixture(extraConfig: Self.signConfig)
        _ = try SigningKeysFixture(in: fixture.url.appendingPathComponent("keys"))
        try makeRelease(fixture, targets: targets)
        // The installers are listed in SHA256SUMS, so they are written before it is signed.
        let installer = try relctl(["installer", "--repository", "acme/velostream"], in: fixture.url)
        guard installer.status == 0 else { throw TestFailure("installer failed: \(installer)") }
        let signed = try relctl(["sign"], in: fixture.url)
        guard signed.status == 0 else { throw TestFailure("sign failed: \(signed)") }
        return fixture
    }

    /// Runs the installer from dist/ with `shell` against `server`, installing into `to`.
    func install(
        _ fixture: PackagingFixture, shell: [String], server: LoopbackServer, to: URL, path: String? = nil
    ) throws -> RunResult {
        var environment = ["INSTALLER_BASE_URL": server.baseURL, "HOME": fixture.url.path]
        if let path { environment["PATH"] = path }
        return try run(
            shell[0],
            Array(shell.dropFirst()) + [
                fixture.dist.appendingPathComponent("velostream-installer.sh").path, "--to", to.path,
            ],
            in: fixture.url, environment: environment)
    }

    func installed(_ folder: URL) -> [String] {
        ((try? folderNames(folder.path)) ?? []).sorted()
    }

    @Test func shellcheckFindsNothingAndTheScriptsCarryTheRelease() throws {
        let fixture = try release()
        let script = fixture.dist.appendingPathComponent("velostream-installer.sh")
        let lint = try run("shellcheck", ["-s", "sh", script.path])
        #expect(lint.status == 0 && lint.stdout.isEmpty, "\(lint)")
        let text = try String(contentsOf: script, encoding: .utf8)
        #expect(text.contains("DEFAULT_BASE_URL='https://github.com/acme/velostream/releases/download/v1.0.0/'"))
        let publicKey = try fixture.directory.read("keys/release.pub").split(separator: "\n")[1]
        #expect(text.contains("MINISIGN_PUBLIC_KEY='\(publicKey)'"))
        #expect(
            text.contains(
                "linux-x86_64) printf '%s\\n' 'velostream-v1.0.0-x86_64-unknown-linux-musl.tar.zst velostream-v1.0.0-x86_64-unknown-linux-gnu.tar.gz'"
            ), "\(text)")
        #expect(!text.contains("windows-msvc"))
        let attributes = try FileManager.default.attributesOfItem(atPath: script.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o755)
        // PowerShell is not on Debian, so the .ps1 is only read here: it names the Windows zip and checks it with Get-FileHash.
        let ps1 = try fixture.directory.read("dist/velostream-installer.ps1")
        #expect(ps1.contains("@{ Arch = 'AMD64'; Name = 'velostream-v1.0.0-x86_64-pc-windows-msvc.zip' }"))
        #expect(ps1.contains("Get-FileHash -Algorithm SHA256"))
        #expect(!ps1.contains("linux"))
    }

    @Test(arguments: [["dash"], ["bash", "--posix"]])
    func installsFromALoopbackServer(shell: [String]) throws {
        let fixture = try release()
        let server = try LoopbackServer(serving: fixture.dist)
        defer { server.stop() }
        let target = fixture.url.appendingPathComponent("prefix/bin")
        let result = try install(fixture, shell: shell, server: server, to: target)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("SHA256SUMS: good minisign signature"), "\(result.stderr)")
        #expect(result.stderr.contains(": SHA-256 ok"))
        #expect(result.stderr.contains("is not on your PATH; add it with: export PATH="), "\(result.stderr)")
        #expect(installed(target) == ["velo-cli", "velo-sql"])
        let ran = try run(target.appendingPathComponent("velo-sql").path, ["--version"])
        #expect(ran.status == 0 && ran.stdout == "velo-sql --version\n", "\(ran)")
        // Installing again replaces the binaries in place.
        #expect(try install(fixture, shell: shell, server: server, to: target).status == 0)
        #expect(installed(target) == ["velo-cli", "velo-sql"])
    }

    @Test func refusesATamperedArchiveABadOrMissingSignatureAndNoHashTool() throws {
        let fixture = try release()
        let served = fixture.url.appendingPathComponent("served")
        let server = try LoopbackServer(serving: served)
        defer { server.stop() }
        func serve(_ change: (URL) throws -> Void) throws {
            try? FileManager.default.removeItem(at: served)
            try FileManager.default.copyItem(at: fixture.dist, to: served)
            try change(served)
        }
        let target = fixture.url.appendingPathComponent("out")

        // Both archives this machine could pick: tampered after signing.
        try serve { dir in
            for triple in [PackagingFixture.linuxGNU, PackagingFixture.linuxMusl] {
                let name = fixture.archiveName(triple) + (triple == PackagingFixture.linuxGNU ? ".tar.gz" : ".tar.zst")
                try flipOneByte(dir.appendingPathComponent(name))
            }
        }
        let tampered = try install(fixture, shell: ["dash"], server: server, to: target)
        #expect(tampered.status != 0 && tampered.stderr.contains("SHA-256 mismatch"), "\(tampered)")
        #expect(!FileManager.default.fileExists(atPath: target.path))

        // SHA256SUMS rewritten to match a tampered archive: the signature catches it.
        try serve { dir in
            let sums = dir.appendingPathComponent("SHA256SUMS")
            try FileManager.default.removeItem(at: sums)
            try "0000000000000000000000000000000000000000000000000000000000000000  x\n".write(
                to: sums, atomically: true, encoding: .utf8)
        }
        let forged = try install(fixture, shell: ["dash"], server: server, to: target)
        #expect(
            forged.status != 0 && forged.stderr.contains("minisign signature of SHA256SUMS does not verify"),
            "\(forged)")
        #expect(!FileManager.default.fileExists(atPath: target.path))

        try serve { dir in try FileManager.default.removeItem(at: dir.appendingPathComponent("SHA256SUMS.minisig")) }
        let unsigned = try install(fixture, shell: ["bash", "--posix"], server: server, to: target)
        #expect(unsigned.status != 0 && unsigned.stderr.contains("SHA256SUMS.minisig is missing"), "\(unsigned)")
        #expect(!FileManager.default.fileExists(atPath: target.path))

        // A PATH holding every tool the installer uses except the three SHA-256 tools.
        try serve { _ in }
        let tools = fixture.url.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        for tool in [
            "uname", "mktemp", "mkdir", "cp", "mv", "chmod", "rm", "awk", "tar", "gzip", "xz", "zstd", "curl",
            "minisign", "cat", "dash",
        ] {
            let found = try Tool.path(tool)
            try FileManager.default.createSymbolicLink(
                atPath: tools.appendingPathComponent(tool).path, withDestinationPath: found)
        }
        let noHash = try install(fixture, shell: ["/usr/bin/dash"], server: server, to: target, path: tools.path)
        #expect(noHash.status != 0 && noHash.stderr.contains("no SHA-256 tool found"), "\(noHash)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // The same PATH plus sha256sum installs: the tool list above is complete.
        let sha256sum = try Tool.path("sha256sum")
        try FileManager.default.createSymbolicLink(
            atPath: tools.appendingPathComponent("sha256sum").path, withDestinationPath: sha256sum)
        let withHash = try install(fixture, shell: ["/usr/bin/dash"], server: server, to: target, path: tools.path)
        #expect(withHash.status == 0, "\(withHash)")
        #expect(installed(target) == ["velo-cli", "velo-sql"])
    }

    /// Issue 57: a failing `relctl installer` writes nothing: a malformed SHA256SUMS is found
    /// before either script is written (it used to exit 2 with both written).
    @Test func aFailingInstallerWritesNoScript() throws {
        let fixture = try PackagingFixture(extraConfig: "")
        try makeRelease(fixture, targets: [PackagingFixture.linuxGNU])
        let sums = fixture.dist.appendingPathComponent("SHA256SUMS")
        let before = try String(contentsOf: sums, encoding: .utf8) + "garbage line\n"
        try before.write(to: sums, atomically: true, encoding: .utf8)
        let result = try relctl(["installer", "--repository", "acme/velostream"], in: fixture.url)
        #expect(result.status == 2 && result.stderr.contains("SHA256SUMS:"), "\(result)")
        for name in ["velostream-installer.sh", "velostream-installer.ps1"] {
            #expect(!FileManager.default.fileExists(atPath: fixture.dist.appendingPathComponent(name).path), "\(name)")
        }
        #expect(try String(contentsOf: sums, encoding: .utf8) == before)
    }

    @Test func noArchiveForThisMachineAndNoKnownRepository() throws {
        let fixture = try release(targets: [PackagingFixture.linuxARM, PackagingFixture.windows])
        let server = try LoopbackServer(serving: fixture.dist)
        defer { server.stop() }
        let target = fixture.url.appendingPathComponent("out")
        let result = try install(fixture, shell: ["dash"], server: server, to: target)
        #expect(
            result.status != 0 && result.stderr.contains("has no archive for this machine (linux-x86_64)"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: target.path))

        // No [publish] github, no GITHUB_REPOSITORY, no GitHub remote: only INSTALLER_BASE_URL can work, and the script says so.
        let generated = try relctl(["installer"], in: fixture.url, environment: ["GITHUB_REPOSITORY": ""])
        #expect(generated.status == 0 && generated.stderr.contains("will require INSTALLER_BASE_URL"), "\(generated)")
        let bare = try run(
            "dash", [fixture.dist.appendingPathComponent("velostream-installer.sh").path, "--to", target.path],
            environment: ["INSTALLER_BASE_URL": ""])
        #expect(bare.status != 0 && bare.stderr.contains("set INSTALLER_BASE_URL"), "\(bare)")
        // Without manifest.json there is nothing to generate from.
        try FileManager.default.removeItem(at: fixture.dist.appendingPathComponent("manifest.json"))
        let missing = try relctl(["installer"], in: fixture.url)
        #expect(missing.status == 2 && missing.stderr.contains("manifest.json: not found"), "\(missing)")
    }
}
