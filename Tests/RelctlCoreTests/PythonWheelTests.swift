import Crypto
import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject

/// The names, tags, ELF reading and text of `[pypi]` wheels, each against the specification or
/// the tool that reads it (packaging for PEP 440, readelf for the symbol versions, Python's
/// base64 for RECORD).
@Suite("Python wheels", .timeLimit(.minutes(30)), .removesTemporaries)
struct PythonWheelTests {
    @Test func namesAreNormalisedAndEscapedAsPEP503And427Ask() {
        #expect(WheelName.normalized("Velo_Stream") == "velo-stream")
        #expect(WheelName.normalized("velo.-_stream") == "velo-stream")
        #expect(WheelName.escaped("Velo.Stream") == "velo_stream")
        #expect(WheelName.module("2fast") == "_2fast")
        #expect(
            WheelName.fileName(package: "Velo-Stream", version: "1.0.0", platform: "win_amd64")
                == "velo_stream-1.0.0-py3-none-win_amd64.whl")
        #expect(WheelName.problem(inName: "velostream") == nil)
        #expect(WheelName.problem(inName: "-velo") != nil)
        #expect(WheelName.problem(inName: "velo stream") != nil)
        #expect(WheelName.problem(inName: "vélo") != nil)
    }

    @Test func semverPrereleasesMapToPEP440AndTheRestIsRefused() throws {
        let mapped = [
            "1.2.3": "1.2.3", "1.2.3-rc.1": "1.2.3rc1", "1.2.3-rc1": "1.2.3rc1", "1.0.0-alpha.2": "1.0.0a2",
            "1.0.0-beta.3": "1.0.0b3", "1.0.0-dev.4": "1.0.0.dev4", "1.0.0-alpha": "1.0.0a0",
            "2.14.0b1": "2.14.0b1",
        ]
        for (semver, pep440) in mapped { #expect(try WheelName.version(semver) == pep440, "\(semver)") }
        for refused in ["1.2.3-next.1", "1.2.3-0", "1.2.3-post.1", "1.2.3+build.5"] {
            #expect(throws: PythonWheelError.self, "\(refused)") { try WheelName.version(refused) }
        }
        // packaging (the PEP 440 implementation pip uses) prints each mapping as it is.
        let check = try run(
            "python3",
            ["-c", "import sys; from packaging.version import Version; [print(str(Version(v))) for v in sys.argv[1:]]"]
                + mapped.keys.sorted().map { try! WheelName.version($0) })
        #expect(check.stdout.split(separator: "\n").map(String.init) == mapped.keys.sorted().map { mapped[$0]! })
    }

    @Test func platformTagsFollowTheTargets() {
        let tags: [String: String?] = [
            "x86_64-unknown-linux-gnu": "manylinux_2_17_x86_64", "aarch64-unknown-linux-gnu": "manylinux_2_17_aarch64",
            "x86_64-unknown-linux-musl": "musllinux_1_2_x86_64", "aarch64-unknown-linux-musl": "musllinux_1_2_aarch64",
            "armv7-unknown-linux-gnueabihf": "manylinux_2_17_armv7l", "aarch64-apple-darwin": "macosx_11_0_arm64",
            "x86_64-apple-darwin": "macosx_10_12_x86_64", "universal-apple-darwin": "macosx_10_12_universal2",
            "x86_64-pc-windows-msvc": "win_amd64", "aarch64-pc-windows-msvc": "win_arm64",
            "i686-pc-windows-msvc": "win32", "x86_64-unknown-freebsd": nil, "wasm32-wasip1": nil,
        ]
        for (triple, tag) in tags { #expect(WheelName.platformTag(triple: triple) == tag, "\(triple)") }
        // The glibc a binary needs lifts the floor; an older one does not lower it.
        #expect(WheelName.platformTag(triple: "x86_64-unknown-linux-gnu", glibc: (2, 34)) == "manylinux_2_34_x86_64")
        #expect(WheelName.platformTag(triple: "x86_64-unknown-linux-gnu", glibc: (2, 3)) == "manylinux_2_17_x86_64")
    }

    @Test func theNeededSymbolVersionsAreWhatReadelfLists() throws {
        for binary in ["/bin/ls", "/usr/bin/git", "/usr/bin/python3"]
        where FileManager.default.fileExists(atPath: binary) {
            let resolved = URL(fileURLWithPath: binary).resolvingSymlinksInPath().path
            let readelf = try run("readelf", ["--version-info", "-W", resolved])
            try #require(readelf.status == 0, "\(readelf)")
            // The `Name:` entries of the .gnu.version_r section, in order.
            guard let start = readelf.stdout.range(of: "'.gnu.version_r'") else { continue }
            let expected = readelf.stdout[start.upperBound...].matches(of: /Name: (\S+)\s+Flags/).map {
                String($0.output.1)
            }
            #expect(try ELFVersionNeeds.names(path: resolved) == expected, "\(resolved)")
            #expect(!expected.isEmpty)
        }
        // Not an ELF file: nothing needed.
        let folder = try TemporaryDirectory()
        let script = try folder.write("run.sh", "#!/bin/sh\n", executable: true)
        #expect(try ELFVersionNeeds.names(path: script.path) == [])
        #expect(try ELFVersionNeeds.newestGlibc(path: script.path) == nil)
    }

    @Test func recordHashesAreUrlsafeBase64WithoutPadding() throws {
        let data = Data("#!/bin/sh\necho velostream\n".utf8)
        let line = String(
            decoding: WheelContents.record(
                [("a,b/velostream", SHA256.hash(data: data), Int64(data.count))], recordPath: "x.dist-info/RECORD"),
            as: UTF8.self)
        let python = try run(
            "python3",
            [
                "-c",
                "import sys, hashlib, base64, csv, io; d = sys.argv[1].encode(); w = io.StringIO(); csv.writer(w, lineterminator='\\n').writerows([('a,b/velostream', 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode(), len(d)), ('x.dist-info/RECORD', '', '')]); print(w.getvalue(), end='')",
                "#!/bin/sh\necho velostream\n",
            ])
        #expect(line == python.stdout, "\(line) vs \(python)")
    }

    @Test func aMetadataValueWithALineBreakIsRefused() throws {
        var metadata = WheelContents.Metadata(
            name: "velostream", version: "1.0.0", summary: "one\nLicense: evil", license: nil, homepage: nil,
            maintainer: nil, requiresPython: ">=3.7", description: nil)
        #expect(throws: PythonWheelError.self) { try WheelContents.metadata(metadata) }
        metadata.summary = "Streams velocities"
        let text = String(decoding: try WheelContents.metadata(metadata), as: UTF8.self)
        #expect(
            text.hasPrefix("Metadata-Version: 2.1\nName: velostream\nVersion: 1.0.0\nSummary: Streams velocities\n"))
    }

    @Test func theSimpleIndexLinksAreReadWithTheirDigests() {
        let html = """
            <html><body><h1>Links for velo-stream</h1>
            <a href="/packages/velo_stream-1.0.0-py3-none-win_amd64.whl#sha256=ABCDEF">velo_stream-1.0.0-py3-none-win_amd64.whl</a><br>
            <a href='https://files.example/p/velo_stream-1.0.0-py3-none-macosx_11_0_arm64.whl?x=1&amp;y=2#md5=00&amp;sha256=0123'>m</a>
            <a href="../../packages/velo%2Bstream-1.0.0.tar.gz">no digest</a>
            </body></html>
            """
        let links = PyPIPublisher.links(in: html)
        #expect(links["velo_stream-1.0.0-py3-none-win_amd64.whl"] == .some("abcdef"))
        #expect(links["velo_stream-1.0.0-py3-none-macosx_11_0_arm64.whl"] == .some("0123"))
        #expect(links["velo+stream-1.0.0.tar.gz"] == .some(nil))
        #expect(links.count == 3)
    }

    @Test func theIndexNextToAnUploadURL() {
        #expect(
            PyPIPublisher.indexURL(repository: "https://upload.pypi.org/legacy/", configured: nil)?.absoluteString
                == "https://pypi.org/simple/")
        #expect(
            PyPIPublisher.indexURL(repository: "https://test.pypi.org/legacy/", configured: nil)?.absoluteString
                == "https://test.pypi.org/simple/")
        #expect(
            PyPIPublisher.indexURL(repository: "http://127.0.0.1:8080/", configured: nil)?.absoluteString
                == "http://127.0.0.1:8080/simple/")
        #expect(
            PyPIPublisher.indexURL(repository: "https://x/legacy/", configured: "https://y/simple")?.absoluteString
                == "https://y/simple/")
    }

    @Test func theSameInputsGiveTheSameWheel() async throws {
        let project = try TemporaryDirectory()
        _ = try project.write(
            "out/x86_64-unknown-linux-musl/velostream", "#!/bin/sh\necho velostream\n", executable: true)
        _ = try project.write("README.md", "# velostream\n")
        let document = try TOMLDocument(
            text: """
                [project]
                name = "velostream"
                description = "Streams velocities"
                license = "MIT"

                [build]
                command = "true"
                binaries = ["velostream"]
                binary-dir = "out/{target}"

                [[target]]
                triple = "x86_64-unknown-linux-musl"

                [sbom]
                enabled = false

                [pypi]
                package = "velostream"
                """, path: project.url.appendingPathComponent("relctl.toml").path)
        let config = try ConfigLoader.parse(document, root: project.url)
        let settings = try #require(config.pypi)
        var written: [Data] = []
        for folder in ["a", "b"] {
            let output = project.url.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
            let result = try await PythonWheelBuilder(context: Context(workingDirectory: project.url)).write(
                settings: settings, config: config,
                inputs: PackagingInputs(tag: "v1.0.0", version: "1.0.0", commit: "", mtime: 1_700_000_000),
                targets: try TargetResolver.resolveAll(config), into: output)
            let wheel = try #require(result.wheels.first)
            #expect(wheel.name == "velostream-1.0.0-py3-none-musllinux_1_2_x86_64.whl")
            written.append(try Data(contentsOf: output.appendingPathComponent(wheel.name)))
        }
        #expect(written[0] == written[1])
    }
}
