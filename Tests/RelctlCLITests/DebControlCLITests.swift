import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The .deb control file's text (issue 40 item 17, issue 39 finding 7): a one-line description
/// still gives an extended description (lintian's extended-description-is-empty is an error),
/// and a maintainer holding a line break cannot add a field of its own.
@Suite("deb control text", .timeLimit(.minutes(30)), .removesTemporaries)
struct DebControlCLITests {
    /// A TOML basic string (JSON's escapes are TOML's for these characters).
    static func toml(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    static func project(description: String, maintainer: String) throws -> GitRepository {
        let repository = try GitRepository()
        let config = """
            [project]
            name = "hello"
            description = \(Self.toml(description))
            license = "MIT"
            maintainer = \(Self.toml(maintainer))
            [[version]]
            path = "VERSION"
            [build]
            binaries = ["hello"]
            binary-dir = "out"
            [[target]]
            triple = "x86_64-unknown-linux-gnu"
            [[package]]
            format = "deb"

            """
        try repository.commit(
            "feat: hello", files: ["relctl.toml": config, "VERSION": "1.0.0\n", "out/hello": "#!/bin/sh\necho hi\n"])
        try repository.git("update-index", "--chmod=+x", "out/hello")
        _ = try run("chmod", ["+x", repository.url.appendingPathComponent("out/hello").path])
        return repository
    }

    @Test func aOneLineDescriptionStillGivesAnExtendedDescription() throws {
        let repository = try Self.project(description: "Says hello", maintainer: "A Person <a@example.com>")
        let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
        #expect(built.status == 0, "\(built)")
        let deb = repository.url.appendingPathComponent("pk/hello_1.0.0_amd64.deb").path
        let field = try run("dpkg-deb", ["-f", deb, "Description"])
        let lines = field.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0] == "Says hello" && lines[1].hasPrefix(" Says hello: "), "\(field.stdout)")
        let lintian = try run("lintian", [deb])
        #expect(!lintian.stdout.contains("E: "), "\(lintian)")
        #expect(!lintian.stdout.contains("extended-description-is-empty"), "\(lintian)")
    }

    @Test func aMaintainerWithALineBreakIsRefused() throws {
        let repository = try Self.project(
            description: "Says hello", maintainer: "Evil\nDepends: totally-harmless <a@example.com>")
        let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
        #expect(built.status == 2, "\(built)")
        #expect(built.stderr.contains("maintainer"), "\(built)")
        #expect(
            !FileManager.default.fileExists(
                atPath: repository.url.appendingPathComponent("pk").path + "/hello_1.0.0_amd64.deb"))
    }
}
