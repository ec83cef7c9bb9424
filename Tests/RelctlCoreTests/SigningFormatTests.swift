import Foundation
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// Parsing details of the signing formats that the end-to-end tests do not reach.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct SigningFormatTests {
    static let key = "AAAAC3NzaC1lZDI1NTE5AAAAIME1AUMyuu0uZ1WBG+e8nD2UgTFfXCAu4+jYR4SEz2cp"

    @Test func allowedSignersOptionsAndSkippedLines() throws {
        let text = """
            # comment
            ci@example.org,release@example.org namespaces="git,file" ssh-ed25519 \(Self.key) laptop
            git-only@example.org namespaces="git" ssh-ed25519 \(Self.key)
            ca@example.org cert-authority ssh-ed25519 \(Self.key)
            old@example.org valid-before="20000101" ssh-ed25519 \(Self.key)
            rsa@example.org ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC
            """
        let signers = try AllowedSigners(text: text, file: "allowed_signers")
        #expect(signers.signers.map(\.principals) == ["ci@example.org,release@example.org", "git-only@example.org"])
        let blob = try #require(Data(base64Encoded: Self.key))
        #expect(signers.signer(for: Array(blob), namespace: "file")?.principals == "ci@example.org,release@example.org")
        #expect(throws: SigningError.self) { try AllowedSigners(text: "someone ssh-ed25519 !!!", file: "f") }
    }

    @Test func swiftPMFormatOneAndSCPRemotes() throws {
        let resolved =
            #"{"object":{"pins":[{"package":"Yams","repositoryURL":"git@github.com:jpsim/Yams.git","state":{"branch":null,"revision":"01835dc202670b5bb90d07f3eae41867e9ed29f6","version":"5.0.6"}}]},"version":1}"#
        let components = try LockfileDependencies.swiftPM(Data(resolved.utf8), file: "Package.resolved")
        #expect(components.map(\.purl) == ["pkg:swift/github.com/jpsim/Yams@5.0.6"])
    }

    @Test func serialNumbersAreStableVersion5UUIDs() {
        let a = SBOMBuilder.serialNumber(project: "p", tag: "v1", archiveSHA256: "00")
        #expect(a == SBOMBuilder.serialNumber(project: "p", tag: "v1", archiveSHA256: "00"))
        #expect(a != SBOMBuilder.serialNumber(project: "p", tag: "v1", archiveSHA256: "01"))
        #expect(a.wholeMatch(of: /urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
    }
}
