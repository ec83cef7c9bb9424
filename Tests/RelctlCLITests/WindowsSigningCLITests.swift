import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[windows] signing-key`: every `.exe` of a Windows target is Authenticode-signed before it is
/// archived. A program built by mingw-w64, a test CA's code-signing certificate exported with
/// `openssl pkcs12 -export`, and `osslsigncode verify` judging the `.exe` taken out of the zip.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct WindowsSigningCLITests {
    static let windows = "x86_64-pc-windows-msvc"
    static let linux = "x86_64-unknown-linux-gnu"

    struct Project {
        var repository: GitRepository
        var keys: AuthenticodeFixture
        var url: URL { repository.url }
        var dist: URL { url.appendingPathComponent("dist") }
        var zip: String { "demo-v1.0.0-\(WindowsSigningCLITests.windows).zip" }
    }

    /// The release fixture's shape with a Windows target whose build copies a mingw-w64 program,
    /// and `[windows]` naming the git-ignored PKCS#12 file.
    func project(windows: String = "signing-key = \"keys/codesign.p12\"\n") throws -> Project {
        let repository = try GitRepository()
        try repository.addBareRemote()
        let keys = try AuthenticodeFixture(in: repository.url.appendingPathComponent("keys"))
        let program = try keys.program("hello")
        let build =
            #"mkdir -p out/{target} && case {target} in *windows*) cp "# + program.path
            + #" out/{target}/hello.exe ;; *) printf '#!/bin/sh\necho hello\n' > out/{target}/hello && chmod +x out/{target}/hello ;; esac"#
        let config = """
            [project]
            name = "demo"

            [[version]]
            path = "VERSION"

            [build]
            command = '''\(build)'''
            binaries = ["hello"]
            binary-dir = "out/{target}"

            [[target]]
            triple = "\(Self.linux)"

            [[target]]
            triple = "\(Self.windows)"

            [archive]
            files = ["README.md"]

            [windows]
            \(windows)
            """
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": config, "VERSION": "1.0.0\n", "README.md": "# demo\n",
                ".gitignore": "out/\ndist/\nkeys/\nother/\n",
            ])
        try repository.git("push", "-q", "origin", "main")
        return Project(repository: repository, keys: keys)
    }

    static let password = ["RELCTL_WINDOWS_KEY_PASSWORD": AuthenticodeFixture.password]

    /// The `.exe` of the Windows zip in `folder`, unpacked into a folder of its own.
    func unpackedProgram(_ project: Project, from folder: URL, into name: String) throws -> URL {
        let out = project.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let unzipped = try run("unzip", ["-q", folder.appendingPathComponent(project.zip).path, "-d", out.path])
        try #require(unzipped.status == 0, "\(unzipped)")
        return out.appendingPathComponent("demo-v1.0.0-\(Self.windows)/bin/hello.exe")
    }

    @Test func theReleasedZipHoldsASignedProgramAndPackagingAgainGivesTheSameZip() throws {
        let project = try project()
        let checked = try relctl(["check"], in: project.url, environment: Self.password)
        #expect(checked.status == 0, "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: project.url, environment: Self.password)
        try #require(released.status == 0, "\(released)")

        let program = try unpackedProgram(project, from: project.dist, into: "unpacked")
        let verified = try project.keys.verify(program)
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout.contains("Signature verification: ok"), "\(verified)")
        // SHA256SUMS lists the zip holding the signed bytes.
        let sums = try run("sha256sum", ["-c", "SHA256SUMS"], in: project.dist)
        #expect(sums.status == 0 && sums.stdout.contains(project.zip), "\(sums)")
        let original = try Data(contentsOf: project.keys.directory.appendingPathComponent("hello.exe"))
        #expect(try Data(contentsOf: program) != original)
        // The Linux archive is untouched by Windows signing.
        #expect(FileManager.default.fileExists(atPath: project.dist.appendingPathComponent("demo-v1.0.0-\(Self.linux).tar.gz").path))

        // Without a timestamp, signing is reproducible: packaging again gives the same zip.
        for folder in ["other/a", "other/b"] {
            let packaged = try relctl(
                ["package", "--tag", "v1.0.0", "--target", Self.windows, "--out", folder], in: project.url,
                environment: Self.password)
            try #require(packaged.status == 0, "\(packaged)")
        }
        let first = try Data(contentsOf: project.url.appendingPathComponent("other/a/\(project.zip)"))
        #expect(first == (try Data(contentsOf: project.url.appendingPathComponent("other/b/\(project.zip)"))))
        #expect(first == (try Data(contentsOf: project.dist.appendingPathComponent(project.zip))))
    }

    @Test func aWrongPasswordStopsCheckAndReleaseBeforeAnythingIsWritten() throws {
        let project = try project()
        let wrong = ["RELCTL_WINDOWS_KEY_PASSWORD": "not the password"]
        let checked = try relctl(["check"], in: project.url, environment: wrong)
        #expect(checked.status == 2, "\(checked)")
        #expect(checked.stderr.contains("keys/codesign.p12") && checked.stderr.contains("RELCTL_WINDOWS_KEY_PASSWORD"), "\(checked)")
        let released = try relctl(["release", "v1.0.0"], in: project.url, environment: wrong)
        #expect(released.status == 2, "\(released)")
        #expect(released.stderr.contains("keys/codesign.p12"), "\(released)")
        #expect(!FileManager.default.fileExists(atPath: project.dist.path))
        #expect(try project.repository.git("tag", "--list").isEmpty)
        // `package` reads the key before it writes: nothing new in dist/ either.
        _ = try relctl(["build"], in: project.url)
        try project.repository.git("tag", "v1.0.0")
        let packaged = try relctl(["package", "--tag", "v1.0.0"], in: project.url, environment: wrong)
        #expect(packaged.status == 2, "\(packaged)")
        #expect(!FileManager.default.fileExists(atPath: project.dist.path), "\(packaged)")
        // A missing key file is named too, with what to do.
        let missing = try relctl(
            ["check"], in: project.url, environment: ["RELCTL_WINDOWS_KEY": "keys/absent.p12"] + Self.password)
        #expect(missing.status == 2 && missing.stderr.contains("keys/absent.p12"), "\(missing)")
    }

    @Test func aTimestampedReleaseVerifiesWithTheTSAsCA() throws {
        let folder = try TemporaryDirectory(prefix: "relctl-tsa")
        let authority = try AuthenticodeFixture(in: folder.url.appendingPathComponent("tsa")).timestampAuthority()
        defer { authority.stop() }
        let project = try project(
            windows: "signing-key = \"keys/codesign.p12\"\ntimestamp-url = \"\(authority.baseURL)\"\n")
        // The authority signs with its own fixture's TSA key: verify with that one's CA.
        let tsaCA = folder.url.appendingPathComponent("tsa/tsa-ca.pem")
        let released = try relctl(["release", "v1.0.0"], in: project.url, environment: Self.password)
        try #require(released.status == 0, "\(released)")
        let program = try unpackedProgram(project, from: project.dist, into: "unpacked")
        let verified = try run(
            "osslsigncode",
            ["verify", "-CAfile", project.keys.caCertificate.path, "-TSA-CAfile", tsaCA.path, "-in", program.path])
        #expect(verified.status == 0, "\(verified)")
        #expect(verified.stdout.contains("Timestamp Server Signature verification: ok"), "\(verified)")
    }
}

private func + (lhs: [String: String], rhs: [String: String]) -> [String: String] {
    lhs.merging(rhs) { _, new in new }
}
