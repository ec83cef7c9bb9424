import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `[pypi]` wheels, judged by Python's own clients: twine check, check-wheel-contents, pip
/// installing from `--find-links dist/` and from a local pypiserver (with authentication) that
/// `relctl publish --registry pypi` uploads to. Everything runs on this machine, offline.
@Suite(.serialized, .timeLimit(.minutes(30)), .removesTemporaries) struct PythonWheelCLITests {
    static let token = "pypi-relctl-test-token-4f1c"

    /// A project whose x86_64 glibc binary is a compiled C program printing its version; the
    /// musl and macOS targets get shell stand-ins (their wheels are only read, not run).
    struct Project {
        let repository: GitRepository
        let remote: TemporaryDirectory
        var url: URL { repository.url }
        var dist: URL { url.appendingPathComponent("dist") }

        init(pypi: String = "[pypi]\npackage = \"Velo_Stream\"\n") throws {
            repository = try GitRepository()
            remote = try repository.addBareRemote()
            let config = """
                [project]
                name = "velostream"
                description = \"\"\"Streams velocities from a release.
                A stand-in program that prints its version.\"\"\"
                license = "MIT"
                homepage = "https://example.com/velostream"
                maintainer = "Test User <test@example.com>"

                [[version]]
                path = "VERSION"

                [build]
                command = "sh build.sh {target} {version}"
                binaries = ["velostream"]
                binary-dir = "out/{target}"

                [[target]]
                triple = "x86_64-unknown-linux-gnu"
                [[target]]
                triple = "aarch64-unknown-linux-musl"
                [[target]]
                triple = "aarch64-apple-darwin"

                \(pypi)
                """
            let build = """
                set -eu
                mkdir -p "out/$1"
                case "$1" in
                x86_64-*linux-gnu) gcc -O2 -DVERSION="\\"$2\\"" -o "out/$1/velostream" velostream.c ;;
                *) printf '#!/bin/sh\\necho velostream %s %s\\n' "$2" "$1" > "out/$1/velostream"; chmod +x "out/$1/velostream" ;;
                esac

                """
            try repository.commit(
                "feat: stream velocities",
                files: [
                    "relctl.toml": config, "VERSION": "1.0.0\n", "build.sh": build, ".gitignore": "out/\ndist/\n",
                    "README.md": "# velostream\n\nStreams **velocities**.\n",
                    "velostream.c":
                        "#include <stdio.h>\nint main(void) { printf(\"velostream %s\\n\", VERSION); return 0; }\n",
                ])
            try repository.git("push", "-q", "origin", "main")
        }
    }

    static let wheelStem = "velo_stream-1.0.0-py3-none-"

    /// The glibc floor the x86_64 wheel must claim, read by binutils' readelf from the binary.
    func expectedGlibcTag(_ binary: URL) throws -> String {
        let versions = try run("readelf", ["--version-info", "-W", binary.path])
        try #require(versions.status == 0, "\(versions)")
        var newest = (2, 17)
        for match in versions.stdout.matches(of: /GLIBC_(\d+)\.(\d+)/) {
            let found = (Int(match.output.1)!, Int(match.output.2)!)
            if found > newest { newest = found }
        }
        return "manylinux_\(newest.0)_\(newest.1)_x86_64"
    }

    func released() throws -> (Project, [String: String]) {
        let project = try Project()
        let release = try relctl(["release", "v1.0.0"], in: project.url)
        try #require(release.status == 0, "\(release)")
        let linux = try expectedGlibcTag(project.url.appendingPathComponent("out/x86_64-unknown-linux-gnu/velostream"))
        let names = [
            "linux": Self.wheelStem + linux + ".whl", "musl": Self.wheelStem + "musllinux_1_2_aarch64.whl",
            "macos": Self.wheelStem + "macosx_11_0_arm64.whl",
        ]
        return (project, names)
    }

    /// A virtual environment with pip, for installing into.
    func venv(_ at: URL) throws -> URL {
        let made = try run("python3", ["-m", "venv", at.path])
        try #require(made.status == 0, "\(made)")
        return at.appendingPathComponent("bin")
    }

    @Test func theReleaseWritesWheelsTwineAndCheckWheelContentsPassAndPipInstallsOne() throws {
        let (project, names) = try released()
        for name in names.values {
            #expect(FileManager.default.fileExists(atPath: project.dist.appendingPathComponent(name).path), "\(name)")
            // An SBOM per wheel, as per archive.
            #expect(
                FileManager.default.fileExists(atPath: project.dist.appendingPathComponent(name + ".cdx.json").path))
        }
        // Listed (so signed and covered by the provenance) and recorded in manifest.json.
        let sums = try String(contentsOf: project.dist.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        for name in names.values {
            #expect(sums.contains("  \(name)\n"), "\(name) not in\n\(sums)")
            #expect(sums.contains("  \(name).cdx.json\n"))
        }
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: project.dist.appendingPathComponent("manifest.json"))) as! [String: Any]
        let packages = (manifest["packages"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(packages == names.values.sorted(), "\(manifest)")
        let archives = (manifest["artifacts"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(archives.allSatisfy { !$0.hasSuffix(".whl") }, "\(archives)")

        let wheels = names.values.sorted().map { project.dist.appendingPathComponent($0).path }
        let twine = try run("twine", ["check", "--strict"] + wheels)
        #expect(twine.status == 0 && !twine.stdout.contains("WARNING") && !twine.stderr.contains("WARNING"), "\(twine)")
        let contents = try run("check-wheel-contents", wheels)
        #expect(contents.status == 0 && contents.stdout.contains("OK"), "\(contents)")

        // The layout: the binary in .data/scripts with mode 0755, RECORD last, fixed times.
        let linux = project.dist.appendingPathComponent(names["linux"]!)
        let listing = try run(
            "python3",
            [
                "-c",
                """
                import sys, zipfile
                z = zipfile.ZipFile(sys.argv[1])
                for i in z.infolist():
                    print(i.filename, oct(i.external_attr >> 16), i.date_time == z.infolist()[0].date_time)
                print(z.read('velo_stream-1.0.0.dist-info/WHEEL').decode())
                print(z.read('velo_stream-1.0.0.dist-info/METADATA').decode())
                """,
                linux.path,
            ])
        try #require(listing.status == 0, "\(listing)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("velo_stream-1.0.0.data/scripts/velostream 0o100755 True"), "\(listing.stdout)")
        #expect(lines.contains("velo_stream/__init__.py 0o100644 True"), "\(listing.stdout)")
        let files = lines.prefix { $0.contains(" 0o") }
        #expect(files.last == "velo_stream-1.0.0.dist-info/RECORD 0o100644 True", "\(listing.stdout)")
        for field in [
            "Wheel-Version: 1.0", "Root-Is-Purelib: false",
            "Tag: py3-none-" + names["linux"]!.dropFirst(Self.wheelStem.count).dropLast(4),
            "Metadata-Version: 2.1", "Name: Velo_Stream", "Version: 1.0.0",
            "Summary: Streams velocities from a release.",
            "License: MIT", "Home-page: https://example.com/velostream", "Requires-Python: >=3.7",
            "Description-Content-Type: text/markdown", "Streams **velocities**.",
        ] {
            #expect(lines.contains(String(field)), "\(field) missing in\n\(listing.stdout)")
        }

        // pip, offline, from the folder: the command runs and prints its version.
        let environment = try TemporaryDirectory(prefix: "relctl-venv")
        let bin = try venv(environment.url.appendingPathComponent("v"))
        let install = try run(
            bin.appendingPathComponent("pip").path,
            ["install", "--no-index", "--find-links", project.dist.path, "velo-stream"])
        #expect(install.status == 0, "\(install)")
        let ran = try run(bin.appendingPathComponent("velostream").path, [])
        #expect(ran.stdout == "velostream 1.0.0\n", "\(ran)")
        // pip checked RECORD's hashes as it installed; pip itself finds nothing wrong.
        let check = try run(bin.appendingPathComponent("pip").path, ["check"])
        #expect(check.status == 0, "\(check)")
    }

    /// A pypiserver on 127.0.0.1 that takes uploads from `__token__` with `token`.
    final class LocalIndex {
        let folder: TemporaryDirectory
        let process: BackgroundProcess
        let port: Int
        var packages: URL { folder.url.appendingPathComponent("packages") }
        var url: String { "http://127.0.0.1:\(port)/" }

        init() throws {
            folder = try TemporaryDirectory(prefix: "relctl-pypiserver")
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent("packages"), withIntermediateDirectories: true)
            let htpasswd = folder.url.appendingPathComponent("htpasswd").path
            let made = try run(
                "python3",
                [
                    "-c",
                    "import sys; from passlib.apache import HtpasswdFile; h = HtpasswdFile(sys.argv[1], new=True); h.set_password('__token__', sys.argv[2]); h.save()",
                    htpasswd, PythonWheelCLITests.token,
                ])
            try #require(made.status == 0, "\(made)")
            // The port is chosen by the kernel, then handed to pypiserver, which prints nothing we wait on:
            // the test asks the server itself until it answers (or the process has ended).
            let chooser = try run(
                "python3",
                ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
            port = Int(chooser.stdout.trimmingCharacters(in: .whitespacesAndNewlines))!
            process = try BackgroundProcess(
                URL(fileURLWithPath: try Tool.path("python3", searchPath: ProcessInfo.processInfo.environment["PATH"])),
                [
                    "-m", "pypiserver", "run", "-i", "127.0.0.1", "-p", String(port), "-a", "update", "-P", htpasswd,
                    "--hash-algo", "sha256", "--server", "wsgiref", folder.url.appendingPathComponent("packages").path,
                ], in: folder.url)
            let ready = try run(
                "python3",
                [
                    "-c",
                    """
                    import sys, urllib.request
                    while True:
                        try:
                            urllib.request.urlopen(sys.argv[1], timeout=5).read()
                            break
                        except Exception:
                            import time; time.sleep(0.1)
                    """,
                    url + "simple/",
                ])
            try #require(ready.status == 0 && process.isRunning, "\(ready)\n\(process.stderrSoFar)")
        }

        /// Ends the server (SIGKILL: a child of the test process starts with SIGTERM blocked).
        func stop() { process.killTree() }

        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: packages.path).sorted()
        }
    }

    @Test func publishUploadsToALocalIndexPipInstallsFromItAndARepublishUploadsNothing() throws {
        let (project, names) = try released()
        let index = try LocalIndex()
        defer { index.stop() }
        // The index is named in the config; the token comes from the environment only.
        try repositoryURL(index.url, in: project)

        // No token: exit 2 before anything is sent.
        let without = try relctl(
            ["publish", "v1.0.0", "--registry", "pypi"], in: project.url, environment: ["PYPI_TOKEN": ""])
        #expect(without.status == 2 && without.stderr.contains("PYPI_TOKEN"), "\(without)")
        #expect(try index.files().isEmpty)

        let published = try relctl(
            ["publish", "v1.0.0", "--registry", "pypi", "--json"], in: project.url,
            environment: ["PYPI_TOKEN": Self.token])
        #expect(published.status == 0, "\(published)")
        #expect(try index.files() == names.values.sorted())
        #expect(!published.stdout.contains(Self.token) && !published.stderr.contains(Self.token), "\(published)")
        let report = try JSONSerialization.jsonObject(with: Data(published.stdout.utf8)) as? [String: Any]
        #expect((report?["uploaded"] as? [String])?.sorted() == names.values.sorted(), "\(published.stdout)")
        // In the shape of a forge's report (`relctl publish --json`).
        #expect(report?["publisher"] as? String == "pypi" && report?["outcome"] as? String == "published")
        #expect(report?["tag"] as? String == "v1.0.0", "\(published.stdout)")
        // What the index stores is dist/'s bytes.
        for name in names.values {
            #expect(
                try Data(contentsOf: index.packages.appendingPathComponent(name))
                    == Data(contentsOf: project.dist.appendingPathComponent(name)))
        }

        // pip installs from the index and the command runs.
        let environment = try TemporaryDirectory(prefix: "relctl-venv")
        let bin = try venv(environment.url.appendingPathComponent("v"))
        let install = try run(
            bin.appendingPathComponent("pip").path,
            ["install", "--index-url", index.url + "simple/", "velo-stream==1.0.0"])
        #expect(install.status == 0, "\(install)")
        #expect(try run(bin.appendingPathComponent("velostream").path, []).stdout == "velostream 1.0.0\n")

        // Again: the index holds every wheel with the same SHA-256, so nothing is sent.
        let before = try index.files().map {
            try FileManager.default.attributesOfItem(atPath: index.packages.appendingPathComponent($0).path)[
                .modificationDate] as? Date
        }
        let again = try relctl(
            ["publish", "v1.0.0", "--registry", "pypi", "--json"], in: project.url,
            environment: ["PYPI_TOKEN": Self.token])
        #expect(again.status == 0, "\(again)")
        let second = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        #expect((second?["uploaded"] as? [String]) == [], "\(again.stdout)")
        #expect(second?["outcome"] as? String == "already-published", "\(again.stdout)")
        #expect((second?["unchanged"] as? [String])?.sorted() == names.values.sorted(), "\(again.stdout)")
        let after = try index.files().map {
            try FileManager.default.attributesOfItem(atPath: index.packages.appendingPathComponent($0).path)[
                .modificationDate] as? Date
        }
        #expect(before == after)
    }

    @Test func anIndexHoldingOtherBytesUnderAWheelsNameIsExitOneNamingIt() throws {
        let (project, names) = try released()
        let index = try LocalIndex()
        defer { index.stop() }
        try repositoryURL(index.url, in: project)
        // Another build of the same version, already on the index.
        let other = names["musl"]!
        try Data("not this release's wheel".utf8).write(to: index.packages.appendingPathComponent(other))
        let published = try relctl(
            ["publish", "v1.0.0", "--registry", "pypi"], in: project.url, environment: ["PYPI_TOKEN": Self.token])
        #expect(published.status == 1 && published.stderr.contains(other), "\(published)")
        // Nothing else was uploaded: the difference is found before the first upload.
        #expect(try index.files() == [other])
    }

    @Test func theDryRunPlansTheWheelsAndANonPEP440PrereleaseIsRefused() throws {
        let project = try Project()
        let dry = try relctl(["release", "v1.0.0", "--dry-run"], in: project.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(dry.stderr.contains("python-wheel") || dry.stdout.contains("python-wheel"), "\(dry)")
        #expect((dry.stderr + dry.stdout).contains(Self.wheelStem + "musllinux_1_2_aarch64.whl"), "\(dry)")
        #expect((dry.stderr + dry.stdout).contains(Self.wheelStem + "macosx_11_0_arm64.whl"), "\(dry)")

        // A SemVer prerelease PEP 440 has no spelling for stops the wheel stage, naming the version.
        try project.repository.commit("chore: next", files: ["VERSION": "1.1.0-next.1\n"])
        try project.repository.git("push", "-q", "origin", "main")
        let next = try relctl(["release", "v1.1.0-next.1", "--dry-run"], in: project.url)
        #expect(next.status == 2 && next.stderr.contains("1.1.0-next.1") && next.stderr.contains("[pypi]"), "\(next)")
        // An rc maps to PEP 440's rc.
        try project.repository.commit("chore: rc", files: ["VERSION": "1.1.0-rc.2\n"])
        try project.repository.git("push", "-q", "origin", "main")
        let rc = try relctl(["release", "v1.1.0-rc.2", "--dry-run"], in: project.url)
        #expect(rc.status == 0 && (rc.stderr + rc.stdout).contains("velo_stream-1.1.0rc2-py3-none-"), "\(rc)")
    }

    @Test func checkRefusesABadPackageNameAndAPlainHTTPIndexElsewhere() throws {
        let project = try Project(
            pypi: "[pypi]\npackage = \"velo stream\"\nrepository-url = \"http://pypi.example/legacy/\"\n")
        let check = try relctl(["check"], in: project.url)
        #expect(check.status == 2, "\(check)")
        #expect(check.stderr.contains("velo stream") && check.stderr.contains("PEP 508"), "\(check)")
        #expect(check.stderr.contains("http://pypi.example/legacy/"), "\(check)")
    }

    /// Points `[pypi] repository-url` at `url`, committed (the release is done, so the tree may move on).
    func repositoryURL(_ url: String, in project: Project) throws {
        let config = project.url.appendingPathComponent("relctl.toml")
        var text = (try? String(contentsOf: config, encoding: .utf8)) ?? ""
        if text.isEmpty {
            text = try project.repository.git("show", "HEAD:relctl.toml")
        }
        text += "repository-url = \"\(url)\"\n"
        try text.write(to: config, atomically: true, encoding: .utf8)
    }
}
