import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 55's "seen but not promised anywhere" findings, each driving the built binary: a Cargo
/// version beyond 64 bits, a manifest's name holding a newline, a licence `check` let through,
/// and `repository` under `ulimit -f` leaving `apt/` without `dnf/`.
@Suite("issue 55 read-side findings", .serialized, .timeLimit(.minutes(30)), .removesTemporaries)
struct ReadFindingsCLITests {
    /// `bump --write` wrote `1.0.18446744073709551616` into Cargo.toml, which no cargo can read.
    @Test func bumpWriteRefusesACargoVersionBeyondSixtyFourBits() throws {
        let manifest = "[package]\nname = \"huge\"\nversion = \"1.0.18446744073709551615\"\n"
        let repo = try GitRepository()
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml": "[project]\nname = \"huge\"\n\n[[version]]\npath = \"Cargo.toml\"\n",
                "Cargo.toml": manifest,
            ])
        try repo.git("tag", "v1.0.18446744073709551615")
        try repo.commit("fix: one more", files: ["src/lib.rs": "pub fn f() {}\n"])

        let result = try relctl(["bump", "--write"], in: repo.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("Cargo.toml") && result.stderr.contains("1.0.18446744073709551616"), "\(result)")
        let after = try String(contentsOf: repo.url.appendingPathComponent("Cargo.toml"), encoding: .utf8)
        #expect(after == manifest, "nothing written")
        #expect(try repo.git("status", "--porcelain").isEmpty, "the tree is as it was")
    }

    /// `check` passed a licence with blanks that the AUR stage then refused, after building and
    /// packaging; now `check` (and every command's load) refuses it first, naming it quoted.
    @Test(arguments: ["[project]", "[aur]"])
    func checkRefusesTheLicenceTheAurStageWouldRefuse(_ place: String) throws {
        let projectLicence = place == "[project]" ? "license = \"MIT License\"\n" : ""
        let aurLicence = place == "[aur]" ? "license = \"MIT License\"\n" : ""
        let repo = try GitRepository()
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml":
                    "[project]\nname = \"tool\"\n\(projectLicence)\n[[version]]\npath = \"VERSION\"\n\n[aur]\nrepository = \"/nonexistent/aur.git\"\n\(aurLicence)",
                "VERSION": "1.0.0\n",
            ])
        for command in [["check"], ["build"]] {
            let result = try relctl(command, in: repo.url)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("\"MIT License\"") && result.stderr.contains("relctl.toml"), "\(result)")
        }
    }

    /// A member's package.json `name` holding a newline reached an error line raw: the second
    /// half began a line of its own (`::error::…`, a command to a CI log). It is shown escaped.
    @Test func aManifestNameWithANewlineIsShownOnOneLine() throws {
        let repo = try GitRepository()
        try repo.commit(
            "feat: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"packages/*\"]\n",
                "packages/a/package.json": "{\"name\": \"evil\\n::error::forged\", \"version\": \"1.0.0\"}\n",
            ])
        for command in [["bump"], ["plan"]] {
            let result = try relctl(command, in: repo.url)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("evil\\n::error::forged"), "shown escaped: \(result)")
            #expect(!result.stderr.split(separator: "\n").contains { $0.hasPrefix("::error::") }, "\(result)")
        }
    }

    /// Under `ulimit -f` that the .deb fits and the .rpm does not, `repository` left a new `apt/`
    /// and no `dnf/`: both are now staged and moved in together, so neither appears.
    @Test func repositoryUnderAFileSizeLimitWritesBothRepositoriesOrNeither() throws {
        let folder = try TemporaryDirectory(prefix: "relctl-read-findings")
        let scratch = try TemporaryDirectory(prefix: "relctl-read-findings-scratch")
        defer {
            folder.remove()
            scratch.remove()
        }
        let project = try FaultProject(at: folder.url)
        let key = try GPGKey()
        try project.addRepositories(key: key, keyFile: scratch.url.appendingPathComponent("repo.asc"))
        try project.succeed(["linux-package", "--tag", "v1.0.0"])
        let names = try FileManager.default.contentsOfDirectory(atPath: project.dist.path)
        let deb = try #require(names.first { $0.hasSuffix(".deb") })
        let rpm = try #require(names.first { $0.hasSuffix(".rpm") })
        let debBytes = WriteFaults.length(project.dist.appendingPathComponent(deb))
        let rpmBytes = WriteFaults.length(project.dist.appendingPathComponent(rpm))
        // The smallest limit (in KiB) the .deb fits under; the .rpm must not.
        let limit = Int((debBytes + 1023) / 1024)
        try #require(Int64(limit) * 1024 < rpmBytes, "the .rpm is the larger: \(debBytes) \(rpmBytes)")

        let limited = try project.fault(["repository", "--tag", "v1.0.0"], fileSizeKiB: limit)
        #expect(limited.status != 0, "\(limited)")
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: project.dist.path))
        #expect(!after.contains("apt") && !after.contains("dnf"), "both or neither: \(after.sorted())")
        #expect(after == Set(names), "nothing left in dist/: \(after.subtracting(names).sorted())")
    }
}
