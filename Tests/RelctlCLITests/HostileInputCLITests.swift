import Foundation
import RelctlCore
import RelctlTestSupport
import Testing

/// Inputs an attacker (or an accident) controls: nothing outside the repository is packaged or
/// read, a low descriptor limit is an error line rather than a crash, and no foreign tag is deleted.
@Suite("hostile input")
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
                ("[archive] files", { (fixture: ReleaseFixture) in
                    try FileManager.default.removeItem(at: fixture.url.appendingPathComponent("README.md"))
                    try FileManager.default.createSymbolicLink(atPath: fixture.url.appendingPathComponent("README.md").path, withDestinationPath: outside.url.appendingPathComponent("secret.txt").path)
                }),
                ("[archive] trees", { (fixture: ReleaseFixture) in
                    try FileManager.default.createSymbolicLink(atPath: fixture.url.appendingPathComponent("configs").path, withDestinationPath: outside.url.appendingPathComponent("configs").path)
                    let config = try fixture.repository.directory.read("relctl.toml")
                        .replacingOccurrences(of: "files = [\"README.md\"]", with: "files = [\"README.md\"]\ntrees = [{ from = \"configs\", to = \"configs\" }]")
                    try fixture.repository.directory.write("relctl.toml", config)
                }),
                ("binaries", { (fixture: ReleaseFixture) in
                    let binary = fixture.url.appendingPathComponent("out/x86_64-unknown-linux-gnu/hello")
                    try FileManager.default.removeItem(at: binary)
                    try FileManager.default.createSymbolicLink(atPath: binary.path, withDestinationPath: outside.url.appendingPathComponent("secret.txt").path)
                }),
            ] as [(String, (ReleaseFixture) throws -> Void)] {
                let fixture = try ReleaseFixture()
                defer { fixture.remove() }
                #expect(try relctl(["build"], in: fixture.url).status == 0)
                try setUp(fixture)
                let packaged = try relctl(["package", "--tag", "v1.0.0"], in: fixture.url)
                #expect(packaged.status == 2, "\(what): \(packaged)")
                #expect(packaged.stderr.contains("outside the project (\(what))"), "\(what): \(packaged)")
                let archives = (try? FileManager.default.contentsOfDirectory(atPath: fixture.url.appendingPathComponent("dist").path)) ?? []
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
            #expect(verify.stderr.contains("dist/SHA256SUMS:2: names `../secret.txt`, outside this folder"), "\(verify)")
            #expect(verify.stderr.contains("dist/SHA256SUMS:3: names `/etc/hostname`"), "\(verify)")
            let secretDigest = try run("sha256sum", [dir.url.appendingPathComponent("secret.txt").path]).stdout.prefix(64)
            #expect(!verify.stdout.contains(String(secretDigest)) && !verify.stderr.contains(String(secretDigest)))
        }
    }

    @Test func aRollbackNeverDeletesATagSomeoneElsePushed() throws {
        let fixture = try ReleaseFixture()
        defer { fixture.remove() }
        try fixture.repository.git("tag", "-a", "-m", "ours", "v1.0.0")
        let ours = try fixture.repository.git("rev-parse", "refs/tags/v1.0.0").trimmingCharacters(in: .whitespacesAndNewlines)
        try fixture.repository.git("push", "-q", "origin", "refs/tags/v1.0.0")
        // Another maintainer replaces it with their own tag object.
        try fixture.remoteGit("tag", "-f", "-a", "-m", "theirs", "v1.0.0", "main")
        let theirs = try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(theirs != ours)
        let git = Git(directory: fixture.url, context: Context(workingDirectory: fixture.url))
        let refused = try git.deleteRemoteTag("v1.0.0", remote: "origin", ifAt: ours)
        #expect(!refused.succeeded)
        #expect(try fixture.remoteGit("rev-parse", "refs/tags/v1.0.0").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == theirs)
        // Our own object is deleted.
        let deleted = try git.deleteRemoteTag("v1.0.0", remote: "origin", ifAt: theirs)
        #expect(deleted.succeeded, "\(deleted.stderrText)")
        #expect(try fixture.remoteTags().isEmpty)
    }
}
