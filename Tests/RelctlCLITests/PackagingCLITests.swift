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

@Suite(.timeLimit(.minutes(45)), .removesTemporaries) struct PackagingCLITests {
    let env = ["SOURCE_DATE_EPOCH": "1700000000"]

    @Test func packagesAllTargetsAndReports() throws {
        let fixture = try PackagingFixture()
        let result = try relctl(
            ["package", "--tag", "v1.0.0", "--json", "--jobs", "2"], in: fixture.url, environment: env)
        #expect(result.status == 0, "\(result)")
        for triple in PackagingFixture.triples {
            #expect(result.stderr.contains("packaged \(fixture.archiveName(triple))"), "\(result.stderr)")
        }
        #expect(result.stderr.contains(" KiB, ") && result.stderr.contains(" entries, "))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(json.count == 4)
        #expect(json.allSatisfy { ($0["sha256"] as? String)?.count == 64 })
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixture.dist.appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect((manifest?["artifacts"] as? [Any])?.count == 4)
        #expect(
            try fixture.distContents() == [
                "manifest.json",
                "velostream-v1.0.0-aarch64-unknown-linux-gnu.cdx.json",
                "velostream-v1.0.0-aarch64-unknown-linux-gnu.tar.xz",
                "velostream-v1.0.0-aarch64-unknown-linux-gnu.tar.xz.sha256",
                "velostream-v1.0.0-x86_64-pc-windows-msvc.cdx.json",
                "velostream-v1.0.0-x86_64-pc-windows-msvc.zip", "velostream-v1.0.0-x86_64-pc-windows-msvc.zip.sha256",
                "velostream-v1.0.0-x86_64-unknown-linux-gnu.cdx.json",
                "velostream-v1.0.0-x86_64-unknown-linux-gnu.tar.gz",
                "velostream-v1.0.0-x86_64-unknown-linux-gnu.tar.gz.sha256",
                "velostream-v1.0.0-x86_64-unknown-linux-musl.cdx.json",
                "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.zst",
                "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.zst.sha256",
            ])
        // Existing archives are never overwritten without --clean.
        let again = try relctl(["package", "--tag", "v1.0.0", "--target", "*musl"], in: fixture.url, environment: env)
        #expect(again.status == 1 && again.stderr.contains("--clean"), "\(again)")
        let cleaned = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*musl", "--clean"], in: fixture.url, environment: env)
        #expect(cleaned.status == 0, "\(cleaned)")
    }

    @Test func zipTimesStayInsideTheDOSRangeAndLevelsAreExplained() throws {
        let fixture = try PackagingFixture()
        let config = try fixture.directory.read("relctl.toml").replacingOccurrences(
            of: "[archive]\n", with: "[archive]\ncompression-level = 15\n")
        try fixture.directory.write("relctl.toml", "\(config)")
        // 2200-01-01: past what zip's 32-bit extended timestamp holds, which would wrap to 2063.
        let result = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*windows*"], in: fixture.url,
            environment: ["SOURCE_DATE_EPOCH": "7258118400"])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr.contains("compression-level 15 is outside zip's 1-9; zip archives use 9"), "\(result.stderr)")
        let zip = fixture.dist.appendingPathComponent(fixture.archiveName(PackagingFixture.windows) + ".zip").path
        let listing = try run(
            "python3",
            [
                "-c",
                "import sys, zipfile; print(min(i.date_time[0] for i in zipfile.ZipFile(sys.argv[1]).infolist()))", zip,
            ])
        #expect(listing.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2106", "\(listing)")
        let unzip = try run("unzip", ["-l", zip])
        #expect(unzip.stdout.contains("2106-02-07"), "\(unzip.stdout)")
        #expect(!unzip.stdout.contains("2063"))
    }

    @Test func namesDifferingOnlyInCaseAreRefusedForWindowsOnly() throws {
        let fixture = try PackagingFixture()
        try fixture.directory.write("demo/Notes.txt", "a")
        try fixture.directory.write("demo/notes.txt", "b")
        let windows = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*windows*"], in: fixture.url, environment: env)
        #expect(windows.status == 2, "\(windows)")
        #expect(
            windows.stderr.contains("`demo/Notes.txt` and `demo/notes.txt` differ only in letter case"),
            "\(windows.stderr)")
        #expect(try fixture.distContents().filter { $0.hasSuffix(".zip") }.isEmpty)
        let linux = try relctl(
            ["package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU], in: fixture.url, environment: env)
        #expect(linux.status == 0, "\(linux)")
    }

    @Test func tagMismatchAndUnknownTarget() throws {
        let fixture = try PackagingFixture()
        let mismatch = try relctl(["package", "--tag", "v2.0.0"], in: fixture.url, environment: env)
        #expect(mismatch.status == 1 && mismatch.stderr.contains("Cargo.toml"), "\(mismatch)")
        let unknown = try relctl(
            ["package", "--tag", "v1.0.0", "--target", "*freebsd*"], in: fixture.url, environment: env)
        #expect(unknown.status == 2 && unknown.stderr.contains("*freebsd*"), "\(unknown)")
        #expect(!FileManager.default.fileExists(atPath: fixture.dist.path))
    }

    @Test func prebuiltArtifactsFolder() throws {
        let fixture = try PackagingFixture()
        let prebuilt = try TemporaryDirectory(prefix: "relctl-prebuilt")
        try prebuilt.write("velo-sql", "#!/bin/sh\necho prebuilt\n", executable: true)
        try prebuilt.write("velo-cli", "#!/bin/sh\necho prebuilt\n", executable: true)
        let result = try relctl(
            [
                "package", "--tag", "v1.0.0", "--target", PackagingFixture.linuxGNU, "--artifacts", prebuilt.path,
                "--out", "out",
            ], in: fixture.url, environment: env)
        #expect(result.status == 0, "\(result)")
        let name = fixture.archiveName(PackagingFixture.linuxGNU)
        let content = try run("tar", ["-xOzf", "out/\(name).tar.gz", "\(name)/bin/velo-sql"], in: fixture.url)
        #expect(content.stdout == "#!/bin/sh\necho prebuilt\n", "\(content)")
    }

    @Test func interruptLeavesNothingBehind() throws {
        let fixture = try PackagingFixture(extraConfig: "")
        // A large incompressible binary and xz -9 make packaging slow enough to interrupt.
        let binary = "target/\(PackagingFixture.linuxARM)/release/velo-sql"
        #expect(try sh("head -c 67108864 /dev/urandom > \(binary)", in: fixture.url).status == 0)
        try fixture.directory.write(
            "relctl.toml",
            try fixture.directory.read("relctl.toml").replacingOccurrences(
                of: "exclude = [\"*.tmp\"]", with: "exclude = [\"*.tmp\"]\ncompression-level = 9"))
        let script = """
            SOURCE_DATE_EPOCH=1 '\(relctlBinary.path)' package --tag v1.0.0 --target '*aarch64*' 2>err.txt &
            pid=$!
            for i in $(seq 1 100); do ls -a dist 2>/dev/null | grep -q relctl-tmp && break; sleep 0.05; done
            kill -TERM $pid; wait $pid; echo "status $?"
            """
        let result = try sh(script, in: fixture.url)
        #expect(result.stdout.contains("status 143"), "\(result)")
        #expect(try fixture.distContents().isEmpty, "left behind: \((try? fixture.distContents()) ?? [])")
    }
}
