import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 58 (after item 5): the deb/rpm and image writers read each binary's header as
/// `relctl package` does, so a binary built for another platform never goes into a package or an
/// image (exit 1 naming binary and target), and nothing is written.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct PlatformCheckCLITests {
    /// This machine's CPU as a triple spells it, and another one.
    private func arches() throws -> (host: String, other: String) {
        let machine = try run("uname", ["-m"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let host = machine == "arm64" ? "aarch64" : machine
        return (host, host == "x86_64" ? "aarch64" : "x86_64")
    }

    /// A project whose one binary is this machine's `/usr/bin/true` (an ELF of the host's CPU),
    /// packaged for `triple`.
    private func project(triple: String, extra: String) throws -> GitRepository {
        let repository = try GitRepository()
        let config = """
            [project]
            name = "hello"
            description = "Says hello"
            license = "MIT"
            maintainer = "A Person <a@example.com>"
            [[version]]
            path = "VERSION"
            [build]
            binaries = ["hello"]
            binary-dir = "out"
            [[target]]
            triple = "\(triple)"
            \(extra)

            """
        try repository.commit("feat: hello", files: ["relctl.toml": config, "VERSION": "1.0.0\n"])
        let binary = repository.url.appendingPathComponent("out/hello")
        try FileManager.default.createDirectory(
            at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/bin/true", toPath: binary.path)
        return repository
    }

    /// Failed before: the deb and rpm held the other CPU's binary (exit 0).
    @Test func aLinuxPackageRefusesABinaryOfAnotherPlatform() throws {
        let (host, other) = try arches()
        for format in ["deb", "rpm"] {
            let repository = try project(
                triple: "\(other)-unknown-linux-gnu", extra: "[[package]]\nformat = \"\(format)\"\n")
            let refused = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
            #expect(refused.status == 1, "\(format): \(refused)")
            #expect(
                refused.stderr.contains("binary `hello`")
                    && refused.stderr.contains("not a binary for target \(other)-unknown-linux-gnu")
                    && refused.stderr.contains("ELF"), "\(format): \(refused.stderr)")
            // A folder that cannot be listed is not an empty one (issue 62): folderNames throws.
            let written = try folderNames(repository.url.appendingPathComponent("pk"))
            #expect(!written.contains { $0.hasSuffix("." + format) }, "\(format): nothing written: \(written)")

            // The host's own target takes the same binary.
            let fits = try project(triple: "\(host)-unknown-linux-gnu", extra: "[[package]]\nformat = \"\(format)\"\n")
            let packaged = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: fits.url)
            #expect(packaged.status == 0, "\(format): \(packaged)")
        }
    }

    /// Failed before: the image was refused only for its dynamic loader, or (on a base image)
    /// built with the other CPU's binary.
    @Test func anImageRefusesABinaryOfAnotherPlatform() throws {
        let (_, other) = try arches()
        let repository = try project(
            triple: "\(other)-unknown-linux-musl",
            extra: "[[image]]\nrepository = \"localhost:5000/hello\"\n")
        let refused = try relctl(["image", "--tag", "v1.0.0"], in: repository.url)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr.contains("binary `hello`")
                && refused.stderr.contains("not a binary for target \(other)-unknown-linux-musl"), "\(refused.stderr)")
        let dist = repository.url.appendingPathComponent("dist")
        let written = FileManager.default.enumerator(atPath: dist.path)?.compactMap { $0 as? String } ?? []
        #expect(!written.contains { $0.hasSuffix("index.json") }, "no image written: \(written)")
    }
}
