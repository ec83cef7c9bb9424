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

/// The generated workflow with `[sign]` keys, `[installer]` and `[ci] attest`: keys come from
/// secrets through `env:` only, attestation permissions are on the release job only, and
/// actionlint and zizmor still find nothing.
@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct CISigningCLITests {
    static let extra = """
        [sign]
        ssh-key = "keys/release_ed25519"
        minisign-key = "keys/release.key"
        allowed-signers = "keys/allowed_signers"

        [installer]
        enabled = true

        [ci]
        attest = true

        """

    @Test func signingInstallersAndAttestationsStayLintClean() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir, extra: Self.extra)
            let generated = try relctl(["ci", "generate"], in: dir.url)
            #expect(generated.status == 0, "\(generated)")
            let text = try dir.read(CIGenerateCLITests.workflow)
            #expect(
                text.contains(
                    """
                          - name: Sign SHA256SUMS
                            env:
                              RELCTL_MINISIGN_KEY: ${{ secrets.RELCTL_MINISIGN_KEY }}
                              RELCTL_MINISIGN_PASSWORD: ${{ secrets.RELCTL_MINISIGN_PASSWORD }}
                              RELCTL_SSH_KEY: ${{ secrets.RELCTL_SSH_KEY }}
                            run: relctl sign dist/SHA256SUMS
                    """), "\(text)")
            #expect(text.contains("run: relctl installer"))
            #expect(text.contains("uses: actions/attest-build-provenance@v3"))
            #expect(text.contains("subject-checksums: dist/SHA256SUMS"))
            #expect(text.contains("dist/*.cdx.json"))
            // Permissions for attestations on the release job only, and only these two.
            #expect(text.components(separatedBy: "id-token: write").count == 2)
            #expect(text.components(separatedBy: "attestations: write").count == 2)
            let release = try #require(text.range(of: "  release:"))
            #expect(text.range(of: "id-token: write")!.lowerBound > release.lowerBound)
            // No expression inside any run script.
            var inRun = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("        run: |") { inRun = true; continue }
                if inRun, !line.hasPrefix("          ") { inRun = false }
                if inRun || line.hasPrefix("        run: ") { #expect(!line.contains("${{"), "\(line)") }
            }

            let actionlint = try CIGenerateCLITests.tool(
                "actionlint", ["-no-color", CIGenerateCLITests.workflow], in: dir.url)
            #expect(actionlint.status == 0, "actionlint findings:\n\(actionlint)")
            let zizmor = try CIGenerateCLITests.tool(
                "zizmor", ["--offline", "--no-progress", CIGenerateCLITests.workflow], in: dir.url)
            #expect(zizmor.status == 0, "zizmor findings:\n\(zizmor)")
            let pedantic = try CIGenerateCLITests.tool(
                "zizmor", ["--offline", "--no-progress", "--persona", "pedantic", CIGenerateCLITests.workflow],
                in: dir.url)
            #expect(pedantic.status == 0, "zizmor --persona pedantic findings:\n\(pedantic)")
        }
    }

    @Test func withoutSignOrAttestNothingChanges() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir)
            #expect(try relctl(["ci", "generate"], in: dir.url).status == 0)
            let text = try dir.read(CIGenerateCLITests.workflow)
            #expect(
                !text.contains("secrets.") && !text.contains("id-token") && !text.contains("attest")
                    && !text.contains("relctl installer"))
        }
    }
}
