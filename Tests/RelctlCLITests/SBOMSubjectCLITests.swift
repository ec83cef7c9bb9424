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

/// The SBOM's subject is the project's own package, with the package URL its package manager
/// gives it (as cargo-cyclonedx names the crate), so a scanner can tie the archive to it; the
/// document stays valid CycloneDX 1.6 for every manifest kind.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct SBOMSubjectCLITests {
    /// A velostream-shaped project whose version lives in `manifest` (replacing Cargo.toml).
    func fixture(manifest: String, contents: String) throws -> PackagingFixture {
        let fixture = try PackagingFixture()
        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("Cargo.toml"))
        try fixture.directory.write(manifest, contents)
        let config = try fixture.directory.read("relctl.toml")
        try fixture.directory.write(
            "relctl.toml", config.replacingOccurrences(of: "path = \"Cargo.toml\"", with: "path = \"\(manifest)\""))
        return fixture
    }

    func subject(of fixture: PackagingFixture) throws -> [String: Any] {
        let packaged = try relctl(
            ["package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU], in: fixture.url,
            environment: SBOMCLITests.env)
        #expect(packaged.status == 0, "\(packaged)")
        let path = fixture.dist.appendingPathComponent(fixture.archiveName(PackagingFixture.linuxGNU) + ".cdx.json")
        let validation = try run("python3", ["-c", SBOMCLITests.validator, path.path])
        #expect(validation.status == 0, "\(validation)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: path)) as? [String: Any])
        return try #require((document["metadata"] as? [String: Any])?["component"] as? [String: Any])
    }

    @Test func npmPythonAndPlainProjectsNameTheirPackage() throws {
        let npm = try fixture(
            manifest: "package.json", contents: #"{ "name": "@acme/velostream", "version": "1.0.0" }"#)
        let npmSubject = try subject(of: npm)
        #expect(npmSubject["purl"] as? String == "pkg:npm/%40acme/velostream@1.0.0", "\(npmSubject)")
        #expect(npmSubject["name"] as? String == "@acme/velostream" && npmSubject["type"] as? String == "application")

        let python = try fixture(
            manifest: "pyproject.toml", contents: "[project]\nname = \"Velo_Stream\"\nversion = \"1.0.0\"\n")
        #expect(try subject(of: python)["purl"] as? String == "pkg:pypi/velo-stream@1.0.0")

        let plain = try fixture(manifest: "VERSION", contents: "1.0.0\n")
        #expect(try subject(of: plain)["purl"] as? String == "pkg:generic/velostream@1.0.0")
    }
}
