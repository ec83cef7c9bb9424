import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Synchronization
import Testing

@testable import RelctlArtifacts
@testable import RelctlBasics
@testable import RelctlChanges
@testable import RelctlDistribution
@testable import RelctlModel
@testable import RelctlProject
@testable import RelctlRelease

/// Inputs an attacker (or an accident) controls: nothing outside the repository is packaged or
/// read, a low descriptor limit is an error line rather than a crash, and no foreign tag is deleted.
@Suite("hostile input", .timeLimit(.minutes(45)), .removesTemporaries)
struct HostileInputCLITests {
    @Test func aLowOpenFileLimitIsAClearErrorNotATrap() throws {
        try withTemporaryDirectory { dir in
            _ = try ChecksumFixtures.makeDist(in: dir)
            let hard = try sh("ulimit -n 16; exec '\(relctlBinary.path)' checksum dist", in: dir.url)
            #expect(hard.status == 2, "\(hard)")
            #expect(hard.stderr.contains("open-file limit is 16"), "\(hard)")
            // Only the soft limit low: relctl raises it and works.
            let soft = try sh("ulimit -Sn 16; exec '\(relctlBinary.path)' checksum dist", in: dir.url)
            #expect(soft.status == 0, "\(soft)")
        }
    }

    @Test func linksOutOfTheRepositoryAreRefusedEverywhere() throws {
        try withTemporaryDirectory { outside in
            try outside.write("secret.txt", "top secret\n")
            try outside.write("configs/db.yaml", "password: hunter2\n")
            for (what, setUp) in [
                (
                    "[archive] files",
                    { (fixture: ReleaseFixture) in
                        try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("README.md"))
                        try FileManager.default.createSymbolicLink(
                            atPath: fixture.url.appendingPathComponent("README.md").path,
                            withDestinationPath: outside.url.appendingPathComponent("secret.txt").path)
                    }
                ),
                (
                    "[archive] trees",
                    { (fixture: ReleaseFixture) in
                        try FileManager.default.createSymbolicLink(
                            atPath: fixture.url.appendingPathComponent("configs").path,
                            withDestinationPath: outside.url.appendingPathComponent("configs").path)
                        let config = try fixture.repository.directory.read("relctl.toml")
                            .replacingOccurrences(
                                of: "files = [\"README.md\"]",
                                with: "files = [\"README.md\"]\ntrees = [{ from = \"configs\", to = \"configs\" }]")
                        try fixture.repository.directory.write("relctl.toml", config)
                    }
                ),
                (
                    "binaries",
                    { (fixture: ReleaseFixture) in
                        let binary = fixture.url.appendingPathComponent("out/x86_64-unknown-linux-gnu/hello")
                        try FileManager.default.removeItem(at: binary)
                        try FileManager.default.createSymbolicLink(
                            atPath: binary.path,
                            withDestinationPath: outside.url.appendingPathComponent("secret.txt").path)
                    }
                ),
            ] as [(String, (ReleaseFixture) throws -> Void)] {
                let fixture = try ReleaseFixture()
                #expect(try relctl(["build"], in: fixture.url).status == 0)
                try setUp(fixture)
                let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
                #expect(packaged.status == 2, "\(what): \(packaged)")
                #expect(packaged.stderr.contains("outside the project (\(what))"), "\(what): \(packaged)")
                let archives =
                    (try folderNames(fixture.url.appendingPathComponent("dist").path))
                #expect(!archives.contains { $0.hasSuffix(".tar.gz") }, "\(what): \(archives)")
                if what != "binaries" {
                    let check = try relctl(["check"], in: fixture.url)
                    #expect(check.status == 2 && check.stderr.contains("outside the project"), "\(what): \(check)")
                }
            }
        }
    }

    @Test func verifyReadsNothingOutsideItsFolder() throws {
        try withTemporaryDirectory { dir in
            try dir.write("secret.txt", "top secret\n")
            try dir.write("dist/a.tar.gz", "a\n")
            let digest = try run("sha256sum", [dir.url.appendingPathComponent("dist/a.tar.gz").path]).stdout.prefix(64)
            let zero = String(repeating: "0", count: 64)
            try dir.write("dist/SHA256SUMS", "\(digest)  a.tar.gz\n\(zero)  ../secret.txt\n\(zero)  /etc/hostname\n")
            let verify = try relctl(["verify", "dist/SHA256SUMS", "--json"], in: dir.url)
            #expect(verify.status == 2, "\(verify)")
            #expect(
                verify.stderr.contains("dist/SHA256SUMS:2: names `../secret.txt`, outside this folder"), "\(verify)")
            #expect(verify.stderr.contains("dist/SHA256SUMS:3: names `/etc/hostname`"), "\(verify)")
            let secretDigest = try run("sha256sum", [dir.url.appendingPathComponent("secret.txt").path]).stdout.prefix(
                64)
            #expect(!verify.stdout.contains(String(secretDigest)) && !verify.stderr.contains(String(secretDigest)))
        }
    }

    @Test func aRollbackNeverDeletesATagSomeoneElsePushed() async throws {
        let fixture = try ReleaseFixture()
        try fixture.repository.git("tag", "-a", "-m", "ours", "v1.0.0")
        let ours = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0").trimmingCharacters(
            in: .whitespacesAndNewlines)
        try fixture.repository.git("push", "-q", "origin", "refs/tags/v1.0.0")
        // Another maintainer replaces it with their own tag object.
        try fixture.remoteGit("tag", "-f", "-a", "-m", "theirs", "v1.0.0", "main")
        let theirs = try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(theirs != ours)
        let git = Git(directory: fixture.url, context: Context(workingDirectory: fixture.url))
        let refused = try await git.deleteRemoteTag("v1.0.0", remote: "origin", ifAt: ours)
        #expect(!refused.succeeded)
        #expect(
            try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.trimmingCharacters(
                in: .whitespacesAndNewlines) == theirs)
        // Our own object is deleted.
        let deleted = try await git.deleteRemoteTag("v1.0.0", remote: "origin", ifAt: theirs)
        #expect(deleted.succeeded, "\(deleted.stderrText)")
        #expect(try fixture.remoteTags().isEmpty)
    }
}

@Suite("hostile input: files and names", .timeLimit(.minutes(45)), .removesTemporaries)
struct HostileFilesCLITests {
    @Test func aNulByteOrBadUTF8InTheConfigNamesTheLine() throws {
        try withTemporaryDirectory { dir in
            var bytes = Data("[project]\nname = \"x\"\n".utf8)
            bytes.append(0)
            bytes.append(contentsOf: Array("\n[build]\nbogus-key = 1\n".utf8))
            try bytes.write(to: dir.url.appendingPathComponent("relctl.toml"))
            let check = try relctl(["check"], in: dir.url)
            #expect(check.status == 2 && check.stderr.contains("relctl.toml:3: contains a NUL byte"), "\(check)")
            try Data([
                0x5B, 0x70, 0x72, 0x6F, 0x6A, 0x65, 0x63, 0x74, 0x5D, 0x0A, 0x6E, 0x61, 0x6D, 0x65, 0x20, 0x3D, 0x20,
                0x22, 0xFF, 0x22, 0x0A,
            ])
            .write(to: dir.url.appendingPathComponent("relctl.toml"))
            let utf8 = try relctl(["check"], in: dir.url)
            #expect(utf8.status == 2 && utf8.stderr.contains("relctl.toml:2: is not valid UTF-8"), "\(utf8)")
        }
    }

    @Test func anOversizedManifestIsRefusedQuicklyWithoutEchoingIt() throws {
        try withTemporaryDirectory { dir in
            try dir.write("relctl.toml", "[project]\nname = \"x\"\n[[version]]\npath = \"VERSION\"\n")
            // Sparse: 1 GiB on paper, no disk used.
            #expect(try sh("truncate -s 1G VERSION", in: dir.url).status == 0)
            // The count is real: reading 64 MiB of the file shows as at least that.
            let sample = try runCountingReads("head", ["-c", "64M", "VERSION"], in: dir.url)
            #expect(sample.result.status == 0 && sample.bytesRead >= 64 << 20, "\(sample.bytesRead) bytes")
            // relctl refuses the file by its size: it reads far less than even that sample.
            let (result, bytesRead) = try runCountingReads(
                relctlBinary.path, ["validate-tag", "v1.0.0"], in: dir.url, environment: ["NO_COLOR": "1"])
            #expect(
                bytesRead < 16 << 20, "relctl read \(bytesRead) bytes: it read the 1 GiB file instead of refusing it")
            #expect(
                result.status == 2 && result.stderr.contains("more than relctl reads"), "\(result.stderr.prefix(500))")
            #expect(result.stderr.utf8.count < 2000)
        }
    }

    @Test func controlCharactersInATagAreShownEscaped() throws {
        try withTemporaryDirectory { dir in
            try dir.write("relctl.toml", "[project]\nname = \"x\"\n")
            let result = try relctl(["validate-tag", "v1.0.0\u{1B}[2J\nrelctl: ok"], in: dir.url)
            #expect(result.status == 2, "\(result)")
            #expect(!result.stderr.contains("\u{1B}"), "raw ESC reached the terminal")
            #expect(result.stderr.contains("\\u{1B}"), "\(result)")
        }
    }

    @Test func windowsZipsRefuseNamesWindowsCannotCreate() throws {
        for name in ["CON", "aux.txt", "trail.", "a:b", "q?.txt", String(repeating: "n", count: 300)] {
            let fixture = try PackagingFixture()
            try fixture.directory.write("demo/" + (name.count > 255 ? "x" : name), "x\n")
            if name.count > 255 {
                // Too long for this file system to hold as well: name it through a link instead.
                try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("demo/x"))
                try fixture.directory.write("demo/x", "x\n")
                try FileManager.default.createSymbolicLink(
                    atPath: fixture.url.appendingPathComponent("demo/short").path, withDestinationPath: name)
            }
            let result = try relctl(
                ["package", "--tag", "v1.0.0", "--target", "x86_64-pc-windows-msvc"], in: fixture.url,
                environment: ["SOURCE_DATE_EPOCH": "1700000000"])
            #expect(result.status == 2, "\(name): \(result)")
            if name.count <= 255 {
                #expect(result.stderr.contains("cannot be extracted on Windows"), "\(name): \(result)")
            }
            let dist =
                (try folderNames(fixture.url.appendingPathComponent("dist").path))
            #expect(!dist.contains { $0.hasSuffix(".zip") }, "\(name): \(dist)")
        }
    }

    @Test func aSourceDateEpochPastTarsLimitIsRefused() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["build"], in: fixture.url).status == 0)
        let result = try relctl(
            ["package", "--tag", "v1.0.0"], in: fixture.url, environment: ["SOURCE_DATE_EPOCH": "99999999999"])
        #expect(result.status == 2 && result.stderr.contains("later than tar readers handle"), "\(result)")
    }

    @Test func anACLMaskDoesNotMakeAFileExecutable() throws {
        let fixture = try PackagingFixture()
        // Group and other execute bits, as an ACL mask shows them, but not the owner's.
        let file = fixture.url.appendingPathComponent("demo/data.csv")
        try fixture.directory.write("demo/data.csv", "a,b\n")
        #expect(chmod(file.path, 0o655) == 0)
        let result = try relctl(
            ["package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU], in: fixture.url,
            environment: ["SOURCE_DATE_EPOCH": "1700000000"])
        #expect(result.status == 0, "\(result)")
        let archive = fixture.url.appendingPathComponent("dist").appendingPathComponent(
            "velostream-v1.0.0-\(PackagingFixture.linuxGNU).tar.gz")
        let listing = try run("tar", ["-tvzf", archive.path]).stdout
        let line = try #require(listing.split(separator: "\n").first { $0.hasSuffix("demo/data.csv") })
        #expect(line.hasPrefix("-rw-r--r--"), "\(line)")
    }

    @Test func concurrentPackagesIntoOneFolderKeepEveryManifestEntry() throws {
        let fixture = try PackagingFixture()
        let triples = PackagingFixture.triples
        let group = DispatchGroup()
        let statuses = Mutex<[Int32]>([])
        for triple in triples {
            group.enter()
            DispatchQueue.global().async {
                let result = try? relctl(
                    ["package", "--tag", "v1.0.0", "--target", triple], in: fixture.url,
                    environment: ["SOURCE_DATE_EPOCH": "1700000000"])
                statuses.withLock { $0.append(result?.status ?? -1) }
                group.leave()
            }
        }
        group.wait()
        #expect(statuses.withLock { $0 } == [0, 0, 0, 0])
        let manifest = try #require(try ReleaseManifest.read(in: fixture.url.appendingPathComponent("dist")))
        #expect(Set(manifest.artifacts.map(\.target)) == Set(triples), "\(manifest.artifacts.map(\.name))")
    }
}
