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

/// The pieces of the .deb/.rpm writers, each judged by a real reader: GNU tar for the ustar
/// members, gcc-built programs for the ELF check; and the `[[package]]` config rules.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct LinuxPackageFormatTests {
    func parse(_ text: String) throws -> RelctlConfig {
        try ConfigLoader.parse(
            try TOMLDocument(text: text, path: "relctl.toml"), root: URL(fileURLWithPath: "/project"))
    }

    static let head = """
        [project]
        name = "Hello_World"
        description = "Says hello"
        license = "Apache-2.0"
        maintainer = "Test User <test@example.com>"
        [build]
        binaries = ["hello"]
        [[target]]
        triple = "x86_64-unknown-linux-gnu"
        [[target]]
        triple = "x86_64-unknown-linux-musl"
        [[target]]
        triple = "aarch64-unknown-linux-gnu"

        """

    @Test func tarMembersWithLongPathsReadBackWithGNUTar() throws {
        try withTemporaryDirectory { directory in
            let long = "./usr/share/doc/" + String(repeating: "a-long-folder-name/", count: 6) + "file.txt"
            var tar = TarStream(mtime: 1_700_000_000)
            try tar.addDirectory("./")
            try tar.addFile(long, contents: Data("hi\n".utf8), mode: 0o644)
            try tar.addFile("./usr/bin/hello", contents: Data("#!/bin/sh\n".utf8), mode: 0o755)
            let url = directory.url.appendingPathComponent("t.tar")
            try tar.finish().write(to: url)
            let listing = try run("tar", ["-tvf", url.path, "--numeric-owner"], environment: ["TZ": "UTC"])
            #expect(listing.status == 0, "\(listing)")
            #expect(listing.stdout.contains(long), "\(listing.stdout)")
            let hello = try #require(listing.stdout.split(separator: "\n").first { $0.hasSuffix(" ./usr/bin/hello") })
            #expect(hello.hasPrefix("-rwxr-xr-x 0/0 ") && hello.contains(" 10 2023-11-14 22:13 "), "\(hello)")
            // A name no ustar split can hold is refused, not truncated.
            #expect(throws: LinuxPackageError.self) {
                try tar.addFile("./" + String(repeating: "x", count: 120), contents: Data(), mode: 0o644)
            }
        }
    }

    @Test func onlyAStaticELFExecutableIsStatic() throws {
        try withTemporaryDirectory { directory in
            _ = try directory.write("hello.c", "int main(void) { return 0; }\n")
            let built = try sh("gcc -static -o static hello.c && gcc -o dynamic hello.c", in: directory.url)
            try #require(built.status == 0, "\(built)")
            #expect(ELFFile.isStaticExecutable(try Data(contentsOf: directory.url.appendingPathComponent("static"))))
            #expect(!ELFFile.isStaticExecutable(try Data(contentsOf: directory.url.appendingPathComponent("dynamic"))))
            #expect(!ELFFile.isStaticExecutable(Data("#!/bin/sh\necho hi\n".utf8)))
            #expect(!ELFFile.isStaticExecutable(Data([0x7F, 0x45, 0x4C, 0x46])))
        }
    }

    @Test func copyrightNamesAHolderAndRefersToDebiansCommonLicense() throws {
        let metadata = try #require(
            PackageMetadata(
                ProjectMetadata(description: "Says hello.", license: "Apache-2.0", maintainer: "A B <a@b.example>"),
                licenseText: "Apache License\nVersion 2.0\n"))
        #expect(metadata.summary == "Says hello")
        let spec = LinuxPackageSpec(
            name: "hello", version: LinuxPackageVersion("1.0.0"),
            architecture: LinuxArchitecture(triple: "x86_64-unknown-linux-gnu")!,
            metadata: metadata, section: "utils", group: "Applications/System", depends: [], release: "1",
            mtime: 1_700_000_000, changes: [], files: [])
        let debian = DebianCopyright.render(spec, onDebian: true)
        #expect(debian.contains("Copyright: 2023 A B <a@b.example>\nLicense: Apache-2.0\n"), "\(debian)")
        #expect(debian.contains("/usr/share/common-licenses/Apache-2.0."), "\(debian)")
        #expect(!debian.contains("Version 2.0"))
        // Elsewhere (the rpm) the text itself is kept.
        #expect(DebianCopyright.render(spec).contains(" Apache License\n Version 2.0\n"))
        #expect(DebianCopyright.debianName("MIT OR Apache-2.0") == "Expat or Apache-2.0")
    }

    @Test func architecturesFollowTheTriple() {
        let cases: [(String, String?, String?)] = [
            ("x86_64-unknown-linux-musl", "amd64", "x86_64"), ("aarch64-unknown-linux-gnu", "arm64", "aarch64"),
            ("armv7-unknown-linux-gnueabihf", "armhf", "armv7hl"), ("arm-unknown-linux-gnueabihf", "armhf", "armv7hl"),
            ("i686-unknown-linux-gnu", "i386", "i686"), ("x86_64-apple-darwin", nil, nil),
        ]
        for (triple, debian, rpm) in cases {
            #expect(LinuxArchitecture(triple: triple)?.debian == debian, "\(triple)")
            #expect(LinuxArchitecture(triple: triple)?.rpm == rpm, "\(triple)")
        }
    }

    @Test func configNamesCollidingTargetsBadNamesAndMaintainers() throws {
        let collision = #expect(throws: ProblemList.self) {
            try parse(Self.head + "[[package]]\nformat = \"deb\"\n")
        }
        #expect(collision?.message.contains("are both amd64") == true, "\(collision?.message ?? "")")
        // `hello_world` (the project name, lowercased) is not a package name: the table needs `name`.
        #expect(collision?.message.contains("set `name`") == true)

        let fine = try parse(
            Self.head + "[[package]]\nformat = \"rpm\"\nname = \"hello\"\ntargets = [\"x86_64-unknown-linux-gnu\"]\n")
        #expect(fine.linuxPackages.first?.targets == ["x86_64-unknown-linux-gnu"])

        let badMaintainer = #expect(throws: ProblemList.self) {
            try parse(
                Self.head.replacingOccurrences(of: "Test User <test@example.com>", with: "test@example.com")
                    + "[[package]]\nformat = \"deb\"\nname = \"hello\"\ntargets = [\"aarch64-unknown-linux-gnu\"]\n")
        }
        #expect(badMaintainer?.message.contains("must read `Name <email>`") == true)
    }
}
