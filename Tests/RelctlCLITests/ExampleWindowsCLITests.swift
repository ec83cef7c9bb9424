import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The bundled example (Examples/velostream) with `[windows] msi = true` and a test key (issue 60),
/// as docs/windows.md tells a new user to try it: its Windows "binaries" become a real PE program
/// (mingw-w64; the example's own stand-ins are shell scripts, which nothing can sign), the key is
/// a test CA's code-signing certificate exported with `openssl pkcs12 -export`, handed over as CI
/// would (`RELCTL_WINDOWS_KEY`), so a run without it shows the unsigned MSI.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct ExampleWindowsCLITests {
    static let windows = "x86_64-pc-windows-msvc"
    static let msi = "velostream-v1.0.0-x86_64-pc-windows-msvc.msi"
    static let zip = "velostream-v1.0.0-x86_64-pc-windows-msvc.zip"
    static let binaries = ["velo-sql", "velo-cli", "velo-1brc"]

    /// `msiinfo export MSI Property`'s value of `name`.
    func property(_ msi: URL, _ name: String) throws -> String? {
        let exported = try run("msiinfo", ["export", msi.path, "Property"])
        try #require(exported.status == 0, "\(exported)")
        return exported.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n").dropFirst(3)
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
            .first { $0.first == name }?.last
    }

    @Test func aReleaseOfTheExampleSignsItsExecutablesAndMSIWithStableCodesAndReproducibleBytes() throws {
        let scratch = try TemporaryDirectory(prefix: "relctl-example-keys")
        let keys = try AuthenticodeFixture(in: scratch.url.appendingPathComponent("keys"))
        let program = try keys.program("velo")
        let project = try ExampleRegistriesCLITests.copyOfExample { $0 + "\n[windows]\nmsi = true\n" }
        // The example's build.sh, then the PE program in place of each Windows stand-in.
        let build = try project.directory.read("build.sh")
        try project.directory.write(
            "build.sh",
            build + """
                case "$triple" in *windows*) for bin in velo-sql velo-cli velo-1brc; do cp '\(program.path)' "$out/$bin.exe"; done ;; esac

                """, executable: true)
        try project.commit("build: a real Windows program")
        let dist = project.url.appendingPathComponent("dist")
        let key = [
            "RELCTL_WINDOWS_KEY": keys.signingKey.path, "RELCTL_WINDOWS_KEY_PASSWORD": AuthenticodeFixture.password,
        ]

        // A wrong password: exit 2 before anything is built, tagged or written.
        let refused = try relctl(
            ["release", "v1.0.0"], in: project.url,
            environment: ["RELCTL_WINDOWS_KEY": keys.signingKey.path, "RELCTL_WINDOWS_KEY_PASSWORD": "wrong"])
        #expect(refused.status == 2 && refused.stderr.contains("RELCTL_WINDOWS_KEY_PASSWORD"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: dist.path))
        #expect(try project.git("tag", "--list").isEmpty)

        // Unsigned (no key): the MSI's tables, then the same bytes from a second run.
        let unsigned = try relctl(["release", "v1.0.0"], in: project.url)
        try #require(unsigned.status == 0, "\(unsigned)")
        let msi = dist.appendingPathComponent(Self.msi)
        let unsignedBytes = try Data(contentsOf: msi)
        let upgradeCode = try #require(try property(msi, "UpgradeCode"))
        let productCode = try #require(try property(msi, "ProductCode"))
        #expect(try property(msi, "ProductVersion") == "1.0.0")
        #expect(try property(msi, "ProductName") == "velostream")
        let extracted = try TemporaryDirectory(prefix: "relctl-msiextract")
        let unpacked = try run("msiextract", ["-C", extracted.path, msi.path])
        #expect(unpacked.status == 0, "\(unpacked)")
        let installed = try FileManager.default.contentsOfDirectory(
            atPath: extracted.url.appendingPathComponent("velostream").path)
        #expect(installed.sorted() == Self.binaries.map { $0 + ".exe" }.sorted(), "\(installed)")
        // The second run is CI's build job for the Windows target (`relctl package`), a second later.
        _ = try sh("sleep 1")
        let again = try relctl(
            ["package", "--tag", "v1.0.0", "--target", Self.windows, "--out", "again"], in: project.url)
        try #require(again.status == 0, "\(again)")
        #expect(
            try Data(contentsOf: project.url.appendingPathComponent("again/\(Self.msi)")) == unsignedBytes,
            "two runs wrote different unsigned MSI bytes")
        // CI's merge step lists the MSI as the release did.
        try ExampleRegistriesCLITests.expectChecksumRebuildsTheLists(of: dist, in: project.url, names: [Self.msi])

        // Signed: the same release with the key.
        try project.git("tag", "-d", "v1.0.0")
        _ = try sh("rm -rf dist again merged target", in: project.url)
        let signed = try relctl(["release", "v1.0.0"], in: project.url, environment: key)
        try #require(signed.status == 0, "\(signed)")
        // Every .exe in the Windows zip (bin/, the root shortcuts and target/release/ copies) verifies.
        let zipped = try TemporaryDirectory(prefix: "relctl-unzip")
        let unzipped = try run("unzip", ["-q", dist.appendingPathComponent(Self.zip).path, "-d", zipped.path])
        try #require(unzipped.status == 0, "\(unzipped)")
        let executables = try sh("find . -name '*.exe' | sort", in: zipped.url).stdout.split(separator: "\n")
        #expect(executables.count >= Self.binaries.count, "\(executables)")
        for path in executables {
            let verified = try keys.verify(zipped.url.appendingPathComponent(String(path)))
            #expect(verified.status == 0 && verified.stdout.contains("Signature verification: ok"), "\(path): \(verified)")
        }
        let verified = try keys.verify(msi)
        #expect(verified.status == 0 && verified.stdout.contains("Signature verification: ok"), "\(verified)")
        #expect(try Data(contentsOf: msi) != unsignedBytes)
        #expect(try property(msi, "UpgradeCode") == upgradeCode && property(msi, "ProductCode") == productCode)
        let signedFiles = try TemporaryDirectory(prefix: "relctl-msiextract")
        let fromSigned = try run("msiextract", ["-C", signedFiles.path, msi.path])
        #expect(fromSigned.status == 0, "\(fromSigned)")
        for binary in Self.binaries {
            let inside = try keys.verify(signedFiles.url.appendingPathComponent("velostream/\(binary).exe"))
            #expect(inside.status == 0 && inside.stdout.contains("Signature verification: ok"), "\(binary): \(inside)")
        }
        let sums = try sh("sha256sum -c --quiet SHA256SUMS", in: dist)
        #expect(sums.status == 0, "\(sums)")

        // The next version: the same UpgradeCode (one product line), a new ProductCode.
        // (Cargo.toml and the Helm chart, which the example's tag is checked against.)
        let bumped = try sh("sed -i 's/1\\.0\\.0/1.1.0/' Cargo.toml charts/velostream/Chart.yaml", in: project.url)
        try #require(bumped.status == 0, "\(bumped)")
        try project.commit("feat: velostream 1.1.0")
        let next = try relctl(["release", "v1.1.0"], in: project.url)
        try #require(next.status == 0, "\(next)")
        let newer = dist.appendingPathComponent("velostream-v1.1.0-x86_64-pc-windows-msvc.msi")
        #expect(try property(newer, "UpgradeCode") == upgradeCode)
        let newerProduct = try #require(try property(newer, "ProductCode"))
        #expect(newerProduct != productCode)
        #expect(try property(newer, "ProductVersion") == "1.1.0")
    }
}
