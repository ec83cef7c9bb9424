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
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes  // TOML has no `\/`
        return String(decoding: try! encoder.encode(text), as: UTF8.self)
    }

    static func project(
        description: String, maintainer: String, format: String = "deb", table: String = "", project: String = ""
    ) throws -> GitRepository {
        let repository = try GitRepository()
        let config = """
            [project]
            name = "hello"
            description = \(Self.toml(description))
            license = "MIT"
            maintainer = \(Self.toml(maintainer))
            \(project)
            [[version]]
            path = "VERSION"
            [build]
            binaries = ["hello"]
            binary-dir = "out"
            [[target]]
            triple = "x86_64-unknown-linux-gnu"
            [[package]]
            format = "\(format)"
            \(table)

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

    /// Every value written into the control file or the rpm header (issue 39, finding 7, the
    /// rest): a line break (or another control character) in it would add a field of its own.
    @Test(arguments: ["deb", "rpm"])
    func aControlCharacterInAnyWrittenValueIsRefusedNamingTheKey(format: String) throws {
        let cases: [(key: String, table: String, project: String, description: String)] = [
            ("section", "section = \(Self.toml("utils\nPre-Depends: evil"))", "", "Says hello"),
            ("depends", "depends = [\(Self.toml("libc6\nPre-Depends: evil"))]", "", "Says hello"),
            ("group", "group = \(Self.toml("Applications\rEvil: yes"))", "", "Says hello"),
            ("release", "release = \(Self.toml("1\u{0B}"))", "", "Says hello"),
            (
                "files", "files = [{ from = \"VERSION\", to = \(Self.toml("/usr/share/doc/hello/x\nevil"))}]", "",
                "Says hello"
            ),
            ("homepage", "", "homepage = \(Self.toml("https://example.com\nBugs: evil"))", "Says hello"),
            // A description's own line breaks are continuation lines; a carriage return is not.
            ("description", "", "", "Says hello\rEvil: yes"),
        ]
        for hostile in cases {
            let repository = try Self.project(
                description: hostile.description, maintainer: "A Person <a@example.com>", format: format,
                table: hostile.table, project: hostile.project)
            let check = try relctl(["check"], in: repository.url)
            #expect(check.status == 2, "\(hostile.key): \(check)")
            #expect(
                check.stderr.contains("`\(hostile.key)`") && check.stderr.contains("control character"),
                "\(hostile.key): \(check)")
            let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
            #expect(built.status == 2, "\(hostile.key): \(built)")
            #expect(built.stderr.contains("`\(hostile.key)`"), "\(hostile.key): \(built)")
            let written = (try folderNames(repository.url.path + "/pk"))
            #expect(written.isEmpty, "\(hostile.key): \(written)")
        }
    }

    @Test func aMultiLineDescriptionStillPackages() throws {
        let repository = try Self.project(
            description: "Says hello\n\nA longer text\non two lines.", maintainer: "A Person <a@example.com>",
            format: "rpm", table: "depends = [\"glibc >= 2.31\"]")
        let built = try relctl(["linux-package", "--tag", "v1.0.0", "--out", "pk"], in: repository.url)
        #expect(built.status == 0, "\(built)")
        let rpm = try FileManager.default.contentsOfDirectory(atPath: repository.url.path + "/pk").first {
            $0.hasSuffix(".rpm")
        }
        let query = try run(
            "rpm", ["-qp", "--qf", "%{DESCRIPTION}|[%{REQUIRENAME} ]", repository.url.path + "/pk/" + (rpm ?? "")])
        #expect(query.stdout.contains("A longer text\non two lines.") && query.stdout.contains("glibc"), "\(query)")
    }
}
