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

/// Packages the velostream-shaped fixture with the real libarchive and reads the results back
/// with GNU tar, bsdtar, unzip and Python.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct PackagingTests {
    static let epoch = "1700000000"

    func context(_ fixture: PackagingFixture, environment: [String: String] = [:]) -> Context {
        var env = ProcessInfo.processInfo.environment
        env["SOURCE_DATE_EPOCH"] = Self.epoch
        for (key, value) in environment { env[key] = value }
        return Context(workingDirectory: fixture.url, environment: env)
    }

    func package(
        _ fixture: PackagingFixture, triples: [String] = PackagingFixture.triples, clean: Bool = false,
        environment: [String: String] = [:], jobs: Int? = nil
    ) async throws -> [PackagedArtifact] {
        let context = context(fixture, environment: environment)
        let config = try ConfigLoader.load(path: nil, context: context)
        let targets = try TargetResolver.select(try TargetResolver.resolveAll(config), globs: triples)
        return try await Packager(context: context).package(
            config: config, tag: "v1.0.0", targets: targets, outputDirectory: fixture.dist, jobs: jobs, clean: clean)
    }

    func layout(_ fixture: PackagingFixture, triple: String = PackagingFixture.linuxGNU) throws -> ArchiveLayout {
        let context = context(fixture)
        let config = try ConfigLoader.load(path: nil, context: context)
        let target = try #require(try TargetResolver.resolveAll(config).first { $0.triple == triple })
        return try ArchiveLayout.compute(
            config: config, target: target,
            placeholders: ["project": "velostream", "tag": "v1.0.0", "version": "1.0.0"])
    }

    @Test func layoutIsSortedWithExplicitFoldersAndLinks() throws {
        let fixture = try PackagingFixture()
        let layout = try layout(fixture)
        #expect(layout.name == "velostream-v1.0.0-x86_64-unknown-linux-gnu")
        let paths = layout.entries.map(\.path)
        #expect(paths == paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        for required in [
            "bin", "bin/velo-cli", "bin/velo-sql", "target", "target/release", "target/release/velo-sql", "velo-sql",
            "setup-env.sh", "setup-env.bat", "README.md", "LICENSE.txt", "demo/trading/data",
            "configs/nested/deep/log.yaml",
        ] {
            #expect(paths.contains(required), "missing \(required)")
        }
        #expect(!paths.contains("demo/1brc/scratch.tmp"), "exclude glob ignored")
        let link = try #require(layout.entries.first { $0.path == "target/release/velo-sql" })
        #expect(link.content == .symlink("../../bin/velo-sql"))
        #expect(layout.entries.first { $0.path == "README.md" }?.mode == 0o644)
        #expect(layout.entries.first { $0.path == "demo/1brc/run-1brc.sh" }?.mode == 0o755)
    }

    @Test func windowsLayoutAddsExeAndCopiesLinks() throws {
        let fixture = try PackagingFixture()
        let layout = try layout(fixture, triple: PackagingFixture.windows)
        #expect(layout.format == "zip")
        let linked = try #require(layout.entries.first { $0.path == "target/release/velo-sql.exe" })
        guard case .file = linked.content, let source = linked.sourcePath else {
            Issue.record("expected a copy, got \(linked.content)"); return
        }
        #expect(source.hasSuffix("x86_64-pc-windows-msvc/release/velo-sql.exe"))
        #expect(layout.entries.first { $0.path == "velo-cli.exe" } != nil)
        // A folder link becomes a copied folder.
        #expect(layout.entries.first { $0.path == "demo/trading/data" }?.isDirectory == true)
        #expect(layout.entries.first { $0.path == "demo/trading/data/prices.csv" } != nil)
        #expect(!layout.entries.contains { if case .symlink = $0.content { return true } else { return false } })
        // Files under a copied link keep the source they were walked from: a walked file's source
        // is derived from its own archive path, and a copy moves it to another one.
        for entry in layout.entries {
            guard let source = entry.sourcePath else { continue }
            #expect(FileManager.default.fileExists(atPath: source), "\(entry.path) <- \(source)")
            if entry.path.hasPrefix("demo/") {  // walked trees keep names (`files` may rename)
                #expect(
                    source.hasSuffix("/" + (entry.path as NSString).lastPathComponent), "\(entry.path) <- \(source)")
            }
        }
    }

    @Test func everyFormatIsReadByRealTools() async throws {
        let fixture = try PackagingFixture()
        let artifacts = try await package(fixture)
        #expect(artifacts.count == 4)
        for artifact in artifacts {
            let path = try #require(artifact.path)
            let name = fixture.archiveName(artifact.target)
            // sha256sum agrees with the hash computed while writing.
            let sums = try sh("sha256sum -c \(artifact.name).sha256", in: fixture.dist)
            #expect(sums.status == 0, "\(sums)")
            let digest = try sh("sha256sum \(artifact.name)", in: fixture.dist).stdout
            #expect(digest.hasPrefix(artifact.sha256))
            let python = try run("python3", ["-c", Self.pythonLister, path])
            #expect(python.status == 0, "\(python)")
            let listed = python.stdout.split(separator: "\n").map(String.init)
            #expect(listed.first == name + "/")
            #expect(listed.count == artifact.entries)
            if artifact.format == "zip" {
                let test = try run("unzip", ["-t", path])
                #expect(test.status == 0, "\(test)")
                #expect(listed.contains("\(name)/target/release/velo-sql.exe file"), "\(listed)")
            } else {
                let gnu = try run("tar", ["-tvf", path])
                #expect(gnu.status == 0, "\(gnu)")
                #expect(gnu.stdout.contains("\(name)/target/release/velo-sql -> ../../bin/velo-sql"), "\(gnu.stdout)")
                #expect(gnu.stdout.contains("root/root") || gnu.stdout.contains("0/0"), "\(gnu.stdout)")
                #expect(listed.contains("\(name)/demo/trading/data link ../shared/data"), "\(listed)")
            }
            #expect(listed.contains("\(name)/\(PackagingFixture.unicodePath) file"), "non-ASCII name lost: \(listed)")
            if artifact.format == "tar.gz" {
                // gzip header: no FNAME flag, MTIME zero (`gzip -n`).
                let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)).prefix(10))
                #expect(header[3] == 0 && header[4..<8].allSatisfy { $0 == 0 }, "\(header)")
                #expect(listed.contains("\(name)/\(PackagingFixture.longPath) file"), "long name lost")
            }
            let bsd = try run("bsdtar", ["-tf", path])
            #expect(bsd.status == 0, "\(bsd)")
            #expect(bsd.stdout.split(separator: "\n").count == artifact.entries)
        }
        let manifest = try #require(try ReleaseManifest.read(in: fixture.dist))
        #expect(manifest.tag == "v1.0.0" && manifest.version == "1.0.0")
        #expect(
            manifest.artifacts.map(\.name)
                == artifacts.map(\.name).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(try fixture.distContents().allSatisfy { !$0.hasPrefix(".") })
    }

    /// Lists `path type [link]` per member, in archive order, checking owners and times.
    static let pythonLister = """
        import io, subprocess, sys, tarfile, zipfile
        p = sys.argv[1]
        if p.endswith('.zip'):
            with zipfile.ZipFile(p) as z:
                assert z.testzip() is None
                for i in z.infolist():
                    assert i.date_time == (2023, 11, 14, 22, 13, 20), i.date_time
                    print(i.filename if i.is_dir() else i.filename + ' file')
        else:
            # Python's tarfile has no zstd before 3.14: decompress with the zstd tool.
            src = io.BytesIO(subprocess.run(['zstd', '-dc', p], check=True, capture_output=True).stdout) if p.endswith('.zst') else None
            with (tarfile.open(fileobj=src) if src else tarfile.open(p)) as t:
                for m in t.getmembers():
                    assert m.uid == 0 and m.gid == 0 and m.uname == '' and m.gname == '', (m.name, m.uid, m.uname)
                    assert m.mtime == 1700000000, m.mtime
                    if m.isdir():
                        assert m.mode == 0o755; print(m.name + '/')
                    elif m.issym():
                        print(m.name + ' link ' + m.linkname)
                    else:
                        assert m.mode in (0o644, 0o755); print(m.name + ' file')
        """

    @Test func demoScriptsRunFromTheExtractedArchive() async throws {
        let fixture = try PackagingFixture()
        _ = try await package(fixture, triples: [PackagingFixture.linuxGNU, PackagingFixture.windows])
        let extract = try TemporaryDirectory(prefix: "relctl-extract")
        let name = fixture.archiveName(PackagingFixture.linuxGNU)
        #expect(
            try run("tar", ["-xzf", fixture.dist.appendingPathComponent(name + ".tar.gz").path, "-C", extract.path])
                .status == 0)
        let root = extract.url.appendingPathComponent(name)
        let brc = try sh("sh demo/1brc/run-1brc.sh", in: root)
        #expect(brc.status == 0 && brc.stdout == "velo-sql --demo 1brc\n", "\(brc)")
        let trading = try sh("sh demo/trading/start-demo.sh", in: root)
        #expect(trading.stdout == "velo-cli trading\nACME,10\n", "\(trading)")
        #expect(try sh("./velo-sql root", in: root).stdout == "velo-sql root\n")
        // setup-env.sh works sourced from another folder (bash) and from the archive root (dash).
        let bash = try run("bash", ["-c", ". \(root.path)/setup-env.sh && command -v velo-cli"], in: extract.url)
        #expect(bash.stdout == root.path + "/bin/velo-cli\n", "\(bash)")
        let dash = try run("dash", ["-c", ". ./setup-env.sh && velo-sql hi && echo $PATH"], in: root)
        #expect(dash.stdout.hasPrefix("velo-sql hi\n\(root.path)/bin:"), "\(dash)")

        let zipName = fixture.archiveName(PackagingFixture.windows)
        #expect(
            try run("unzip", ["-q", fixture.dist.appendingPathComponent(zipName + ".zip").path, "-d", extract.path])
                .status == 0)
        let copied = extract.url.appendingPathComponent(zipName + "/target/release/velo-sql.exe")
        let attributes = try FileManager.default.attributesOfItem(atPath: copied.path)
        #expect(attributes[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOf: copied, encoding: .utf8).contains("velo-sql"))
    }

    @Test func reproducibleAcrossUmaskMtimesOrderAndTimeZone() async throws {
        let first = try PackagingFixture(mtime: 1_000_000)
        let second = try PackagingFixture(reversed: true, restrictive: true, mtime: 1_600_000_000)
        let a = try await package(first, jobs: 1)
        let b = try await package(second, jobs: 4)
        #expect(a.map(\.sha256) == b.map(\.sha256))
        #expect(a.map(\.size) == b.map(\.size))
        // zip's DOS times use localtime: run the whole process under other zones too.
        for zone in ["America/Los_Angeles", "Asia/Kolkata"] {
            let third = try PackagingFixture(reversed: true)
            // The plain C locale too: names must still be stored as UTF-8.
            let env = ["SOURCE_DATE_EPOCH": Self.epoch, "TZ": zone, "LC_ALL": "C"]
            let result = try relctl(
                ["package", "--tag", "v1.0.0", "--target", "*windows*"], in: third.url, environment: env)
            #expect(result.status == 0, "\(result)")
            let digest = try String(
                contentsOf: third.dist.appendingPathComponent(
                    third.archiveName(PackagingFixture.windows) + ".zip.sha256"), encoding: .utf8)
            #expect(digest.hasPrefix(try #require(a.first { $0.format == "zip" }).sha256), "TZ=\(zone)")
        }
    }

    @Test func cleanDropsTheRemovedArchivesFromSHA256SUMS() async throws {
        let fixture = try PackagingFixture()
        let first = try await package(fixture, triples: [PackagingFixture.linuxGNU])
        let other = String(repeating: "a", count: 64) + "  other.zip\n"
        _ = try fixture.directory.write("dist/SHA256SUMS", "\(first[0].sha256)  \(first[0].name)\n" + other)
        // The README changes, so the new archive's digest differs from the listed one.
        _ = try fixture.directory.write("README.md", "# velostream 2\n")
        let again = try await package(fixture, triples: [PackagingFixture.linuxGNU], clean: true)
        #expect(again[0].sha256 != first[0].sha256)
        #expect(try fixture.directory.read("dist/SHA256SUMS") == other)
        // Nothing else listed: the file goes.
        _ = try fixture.directory.write("dist/SHA256SUMS", "\(again[0].sha256)  \(again[0].name)\n")
        _ = try await package(fixture, triples: [PackagingFixture.linuxGNU], clean: true)
        #expect(!fixture.directory.exists("dist/SHA256SUMS"))
    }

    @Test func noArchiveIsLeftWithoutItsChecksum() async throws {
        let fixture = try PackagingFixture()
        let name = fixture.archiveName(PackagingFixture.linuxGNU) + ".tar.gz"
        // A folder where the .sha256 goes makes writing it fail after the archive is in place.
        try FileManager.default.createDirectory(
            at: fixture.dist.appendingPathComponent(name + ".sha256"), withIntermediateDirectories: true)
        await #expect(throws: (any Error).self) {
            _ = try await package(fixture, triples: [PackagingFixture.linuxGNU])
        }
        #expect(try fixture.distContents() == [name + ".sha256"], "\((try? fixture.distContents()) ?? [])")
    }

    @Test func aRepositoryWithoutCommitsSaysSo() async throws {
        try await withTemporaryDirectory { dir in
            #expect(try sh("git init -q", in: dir.url).status == 0)
            var environment = ProcessInfo.processInfo.environment
            environment["SOURCE_DATE_EPOCH"] = nil
            let context = Context(workingDirectory: dir.url, environment: environment)
            do {
                _ = try await ReleaseIdentity.clock(forTag: "v1.0.0", root: dir.url, context: context)
                Issue.record("a timestamp without any commit")
            } catch let error as IdentityError {
                #expect(error.exitCode == .badInput)
                #expect(
                    error.description.contains("has no commit yet") && error.description.contains("SOURCE_DATE_EPOCH"),
                    "\(error)")
            }
        }
    }

    @Test func aFileInThePlaceOfTheOutputFolderIsNamed() async throws {
        let fixture = try PackagingFixture()
        _ = try fixture.directory.write("dist", "not a folder\n")
        do {
            _ = try await package(fixture, triples: [PackagingFixture.linuxGNU])
            Issue.record("packaged into a file")
        } catch let error as RelctlError {
            #expect(error.exitCode == .badInput)
            #expect("\(error.diagnostics)".contains("\(fixture.dist.path): is a file"), "\(error.diagnostics)")
        }
    }

    @Test func outputFolderInsideATreeIsLeftOut() async throws {
        let fixture = try PackagingFixture()
        let context = context(fixture)
        let config = try ConfigLoader.load(path: nil, context: context)
        let targets = try TargetResolver.select(
            try TargetResolver.resolveAll(config), globs: [PackagingFixture.linuxGNU])
        // Spelled through `.` so only the folder's identity, not its path, can match.
        let output = fixture.url.appendingPathComponent("demo/./out")
        let first = try await Packager(context: context).package(
            config: config, tag: "v1.0.0", targets: targets, outputDirectory: output)
        let again = try await Packager(context: context).package(
            config: config, tag: "v1.0.0", targets: targets, outputDirectory: output, clean: true)
        #expect(again.map(\.sha256) == first.map(\.sha256))
        let listing = try sh("tar -tzf \(again[0].name)", in: output)
        #expect(
            listing.status == 0 && listing.stdout.contains("/demo/1brc/") && !listing.stdout.contains("/demo/out"),
            "\(listing)")
    }

    @Test func versionControlFoldersAreLeftOutOfTrees() async throws {
        let fixture = try PackagingFixture()
        try fixture.directory.write("demo/.git/config", "[core]\n")
        try fixture.directory.write("demo/sub/.svn/entries", "x")
        try fixture.directory.write("demo/.gitignore", "*.log\n")
        let context = context(fixture)
        let config = try ConfigLoader.load(path: nil, context: context)
        let targets = try TargetResolver.select(
            try TargetResolver.resolveAll(config), globs: [PackagingFixture.linuxGNU])
        let artifacts = try await Packager(context: context).package(
            config: config, tag: "v1.0.0", targets: targets, outputDirectory: fixture.dist)
        let listing = try sh("tar -tzf \(artifacts[0].name)", in: fixture.dist)
        #expect(listing.status == 0 && listing.stdout.contains("/demo/.gitignore"), "\(listing)")
        #expect(!listing.stdout.contains("/.git/") && !listing.stdout.contains("/.svn/"), "\(listing)")
    }

    @Test func timestampComesFromTheTaggedCommit() async throws {
        let fixture = try PackagingFixture()
        let repository = try GitRepository(directory: fixture.directory)
        try repository.commit("release", date: "2025-03-04T05:06:07Z")
        try repository.git("tag", "v1.0.0")
        try repository.commit("later", date: "2025-06-01T00:00:00Z")
        var env = ProcessInfo.processInfo.environment
        env["SOURCE_DATE_EPOCH"] = nil
        let context = Context(workingDirectory: fixture.url, environment: env)
        let time = try await ReleaseIdentity.clock(forTag: "v1.0.0", root: fixture.url, context: context)
        #expect(time == 1_741_064_767)
        #expect(try await ReleaseIdentity.clock(forTag: "v9.9.9", root: fixture.url, context: context) == 1_748_736_000)
        await #expect(throws: EnvironmentError.self) {
            try await ReleaseIdentity.clock(
                forTag: "v1.0.0", root: fixture.url,
                context: Context(workingDirectory: fixture.url, environment: ["SOURCE_DATE_EPOCH": "yesterday"]))
        }
    }

    @Test func existingArchiveNeedsClean() async throws {
        let fixture = try PackagingFixture()
        let first = try await package(fixture, triples: [PackagingFixture.linuxGNU])
        do {
            _ = try await package(fixture, triples: [PackagingFixture.linuxGNU])
            Issue.record("second run overwrote the archive")
        } catch let error as RelctlError {
            #expect(error.exitCode == .failure)
            #expect("\(error.diagnostics)".contains("--clean"))
        }
        let again = try await package(fixture, triples: [PackagingFixture.linuxGNU], clean: true)
        #expect(again.map(\.sha256) == first.map(\.sha256))
        #expect(try fixture.distContents().allSatisfy { !$0.hasPrefix(".") })
    }
}
