import Foundation
import RelctlArtifacts
import RelctlModel
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The release notes' `.repo` file names the rpm key only when the rpms are signed (issue 44):
/// dist/dnf holds `RPM-GPG-KEY-NAME-packages` only then, and dnf refuses an unsigned rpm under
/// `gpgcheck=1`.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct RepositoryNotesSnippetTests {
    func settings() -> RepositorySettings {
        var settings = RepositorySettings()
        settings.dnf = true
        settings.url = "https://packages.example.com/acme"
        return settings
    }

    /// The `[acme]` section of the snippet's ini block.
    func repoFile(rpmsSigned: Bool) throws -> Substring {
        let snippet = try #require(
            try RepositoryText.notesSnippet(settings(), project: "acme", rpmsSigned: rpmsSigned))
        let start = try #require(snippet.range(of: "```ini\n"))
        let end = try #require(snippet.range(of: "```", range: start.upperBound..<snippet.endIndex))
        return snippet[start.upperBound..<end.lowerBound]
    }

    @Test func signedRpmsListBothKeysAndCheckPackageSignatures() throws {
        let file = try repoFile(rpmsSigned: true)
        #expect(file.contains("\ngpgcheck=1\nrepo_gpgcheck=1\n"), "\(file)")
        #expect(
            file.hasSuffix(
                "gpgkey=https://packages.example.com/acme/dnf/RPM-GPG-KEY-acme https://packages.example.com/acme/dnf/RPM-GPG-KEY-acme-packages\n"
            ), "\(file)")
    }

    @Test func unsignedRpmsNameOnlyTheRepositoryKey() throws {
        let file = try repoFile(rpmsSigned: false)
        #expect(file.contains("\ngpgcheck=0\nrepo_gpgcheck=1\n"), "\(file)")
        #expect(file.hasSuffix("gpgkey=https://packages.example.com/acme/dnf/RPM-GPG-KEY-acme\n"), "\(file)")
        #expect(!file.contains("-packages"), "\(file)")
    }

    @Test func anRpmKeyInTheEnvironmentCountsAsSigned() {
        var rpm = LinuxPackageSettings(format: "rpm")
        #expect(!RpmSigningKey.isConfigured([rpm], environment: [:]))
        #expect(!RpmSigningKey.isConfigured([rpm], environment: [RpmSigningKey.variable: " \n"]))
        #expect(RpmSigningKey.isConfigured([rpm], environment: [RpmSigningKey.variable: "KEY"]))
        #expect(
            !RpmSigningKey.isConfigured(
                [LinuxPackageSettings(format: "deb")], environment: [RpmSigningKey.variable: "KEY"]))
        rpm.signingKey = "keys/rpm_ed25519"
        #expect(RpmSigningKey.isConfigured([rpm], environment: [:]))
    }
}
