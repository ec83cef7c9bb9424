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

/// The Install section's installer line and by-hand signature checks, found from dist/.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct InstallVerificationTests {
    static let manifest = ReleaseManifest(
        project: "velostream", tag: "v1.0.0", version: "1.0.0", commit: "abc",
        artifacts: [
            .init(
                name: "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz", target: "x86_64-unknown-linux-musl",
                format: "tar.gz", size: 2048, sha256: String(repeating: "a", count: 64))
        ])

    @Test func linesAppearOnlyForFilesThatExist() throws {
        try withTemporaryDirectory { dir in
            let keys = try SigningKeysFixture(in: dir.url.appendingPathComponent("keys"))
            let dist = dir.url.appendingPathComponent("dist")
            try FileManager.default.createDirectory(at: dist, withIntermediateDirectories: true)
            let settings = SignSettings(allowedSigners: "keys/allowed_signers", minisignPublicKey: "keys/release.pub")
            // Keys configured but nothing signed and no installer: nothing to say.
            #expect(InstallVerification.find(in: dist, project: "velostream", settings: settings, root: dir.url) == nil)

            for name in ["velostream-installer.sh", "velostream-installer.ps1", "SHA256SUMS.sig", "SHA256SUMS.minisig"]
            {
                try dir.write("dist/\(name)", "x")
            }
            let found = try #require(
                InstallVerification.find(in: dist, project: "velostream", settings: settings, root: dir.url))
            #expect(
                found.shellInstaller == "velostream-installer.sh"
                    && found.powerShellInstaller == "velostream-installer.ps1")
            let publicKey = try String(contentsOf: keys.minisignPublicKey, encoding: .utf8).split(separator: "\n")[1]
            #expect(found.minisignKey == String(publicKey))
            #expect(
                found.allowedSigner?.hasPrefix("\(SigningKeysFixture.principal) namespaces=\"file\" ssh-ed25519 ")
                    == true)

            let links = RepositoryLinks(remoteURL: "git@github.com:acme/velostream.git")
            let text = InstallSection.render(manifest: Self.manifest, links: links, verification: found)
            #expect(
                text.contains(
                    "curl -fsSL https://github.com/acme/velostream/releases/download/v1.0.0/velostream-installer.sh | sh"
                ), "\(text)")
            #expect(text.contains("powershell -ExecutionPolicy Bypass -File .\\velostream-installer.ps1"))
            #expect(text.contains("minisign -Vm SHA256SUMS -P \(publicKey)"))
            #expect(
                text.contains(
                    "ssh-keygen -Y verify -f allowed_signers -I \(SigningKeysFixture.principal) -n file -s SHA256SUMS.sig < SHA256SUMS"
                ))
            #expect(
                text.contains(
                    "curl -fLO https://github.com/acme/velostream/releases/download/v1.0.0/SHA256SUMS.minisig"))
            #expect(text.contains("sha256sum -c --ignore-missing SHA256SUMS"))
            // Without the extras the section is what it was.
            #expect(!InstallSection.render(manifest: Self.manifest, links: links).contains("installer"))
        }
    }

    @Test func theHandCommandsWorkWithTheStockTools() throws {
        try withTemporaryDirectory { dir in
            let keys = try SigningKeysFixture(in: dir.url.appendingPathComponent("keys"))
            try dir.write("dist/SHA256SUMS", "\(String(repeating: "0", count: 64))  a.tar.gz\n")
            var config = RelctlConfig.defaults(root: dir.url)
            config.sign = SignSettings(
                sshKey: "keys/release_ed25519", minisignKey: "keys/release.key", allowedSigners: "keys/allowed_signers",
                minisignPublicKey: "keys/release.pub")
            _ = try ReleaseSigner.sign(
                sums: "dist/SHA256SUMS", config: config, context: Context(workingDirectory: dir.url, environment: [:]))
            let found = try #require(
                InstallVerification.find(
                    in: dir.url.appendingPathComponent("dist"), project: "x", settings: config.sign, root: dir.url))
            let text = InstallSection.signatures(found, tag: "v1.0.0", links: nil)
            // Run the notes' commands (minus the final sha256sum, whose archive is not here) as a user would.
            let commands = text.split(separator: "\n").filter {
                $0.hasPrefix("minisign ") || $0.hasPrefix("echo ") || $0.hasPrefix("ssh-keygen ")
            }.joined(separator: "\n")
            let result = try sh("set -e\n" + commands, in: dir.url.appendingPathComponent("dist"))
            #expect(result.status == 0, "\(commands)\n\(result)")
            _ = keys
        }
    }
}
