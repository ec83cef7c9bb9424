import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// `relctl reproduce`: a correct release rebuilds identically from a fresh clone at another
/// path (from dist/, a copied folder and an HTTP URL); a build that embeds the clock and an
/// archive whose member was changed after the release are named down to the member; and the
/// project's working tree, tag and dist/ are left exactly as they were.
@Suite("relctl reproduce", .serialized, .timeLimit(.minutes(60)), .removesTemporaries)
struct ReproduceCLITests {
    static let linuxArchive = "demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz"
    static let linuxFolder = "demo-v1.0.0-x86_64-unknown-linux-gnu"

    struct Report: Decodable {
        struct File: Decodable {
            struct Archive: Decodable {
                struct Member: Decodable {
                    struct Field: Decodable { var field: String }
                    var path: String
                    var status: String
                    var fields: [Field]
                }
                var members: [Member]
            }
            var name: String
            var status: String
            var archive: Archive?
            var diffoscope: String?
        }
        struct Environment: Decodable { var umask: String; var timeZone: String; var locale: String }
        var reproducible: Bool
        var clone: String
        var environment: Environment
        var files: [File]
        var issueLine: String
    }

    /// Everything reproduce promises not to touch: status (ignored files too), tags, dist/'s bytes.
    static func snapshot(_ fixture: ReleaseFixture) throws -> String {
        let status = try fixture.statusIncludingIgnored()
        let tags = try fixture.repository.git("show-ref", "--tags")
        let dist = try sh(
            "find dist -type f | sort | xargs sha256sum; ls -la --time-style=full-iso dist", in: fixture.url)
        return [status, tags, dist.stdout].joined(separator: "\n--\n")
    }

    static func lastLine(_ text: String) -> String {
        text.split(separator: "\n").last.map(String.init) ?? ""
    }

    @Test func aCorrectReleaseIsReproducedFromEverySource() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        let before = try Self.snapshot(fixture)

        let result = try relctl(["reproduce", "v1.0.0", "--json"], in: fixture.url)
        #expect(result.status == 0, "\(result)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(report.reproducible && report.files.count == 4 && report.files.allSatisfy { $0.status == "identical" })
        #expect(!report.clone.hasPrefix(fixture.url.path) && !FileManager.default.fileExists(atPath: report.clone))
        #expect(report.environment.umask != "0022" && report.environment.timeZone == "Pacific/Kiritimati")
        #expect(
            Self.lastLine(result.stderr).hasPrefix("relctl reproduce v1.0.0 (commit ")
                && Self.lastLine(result.stderr).contains("reproducible: 4 of 4 file(s) identical"), "\(result)")
        #expect(try Self.snapshot(fixture) == before)

        // A downloaded copy in another folder, and the same files over HTTP.
        try withTemporaryDirectory { download in
            #expect(try sh("cp dist/* \"$OUT\"/", in: fixture.url, environment: ["OUT": download.path]).status == 0)
            let fromFolder = try relctl(["reproduce", "v1.0.0", "--from", download.path], in: fixture.url)
            #expect(fromFolder.status == 0, "\(fromFolder)")
            let server = try LoopbackServer(serving: download.url)
            defer { server.stop() }
            let fromURL = try relctl(["reproduce", "v1.0.0", "--from", server.baseURL], in: fixture.url)
            #expect(fromURL.status == 0 && fromURL.stderr.contains("published \(server.baseURL)"), "\(fromURL)")
        }
        #expect(try Self.snapshot(fixture) == before)
    }

    /// Issue 39, finding 3: a published manifest.json naming its project `../../escaped` made
    /// relctl download the provenance to `$TMPDIR/../escaped-v1.0.0.intoto.jsonl`. Names read from
    /// a release are data: the run writes nothing outside its scratch folder.
    @Test func aReleasesFileNamesNeverLeadOutOfTheScratchFolder() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        try withTemporaryDirectory { root in
            let download = root.url.appendingPathComponent("published")
            let tmp = root.url.appendingPathComponent("a/b")
            try FileManager.default.createDirectory(at: download, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
            #expect(try sh("cp dist/* \"$OUT\"/", in: fixture.url, environment: ["OUT": download.path]).status == 0)
            let manifestURL = download.appendingPathComponent("manifest.json")
            let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
            try #require(manifest.contains("\"project\""), "\(manifest)")
            let hostile = manifest.replacingOccurrences(
                of: #""project" *: *"[^"]*""#, with: #""project" : "../../escaped""#, options: .regularExpression)
            try hostile.write(to: manifestURL, atomically: true, encoding: .utf8)
            // The server answers the normalised path, as a hostile or careless one would.
            try "planted\n".write(
                to: download.appendingPathComponent("escaped-v1.0.0.intoto.jsonl"), atomically: true, encoding: .utf8)
            let server = try LoopbackServer(serving: download)
            defer { server.stop() }
            let result = try relctl(
                ["reproduce", "v1.0.0", "--from", server.baseURL], in: fixture.url, environment: ["TMPDIR": tmp.path])
            #expect([0, 1, 2].contains(result.status), "\(result)")
            let escaped = try sh(
                "find \"$ROOT\" -name 'escaped-v1.0.0.intoto.jsonl' -not -path \"$ROOT/published/*\"",
                environment: ["ROOT": root.path])
            #expect(escaped.stdout.isEmpty, "written outside the scratch folder: \(escaped.stdout)\n\(result)")
        }
    }

    @Test func aBuildThatEmbedsTheClockIsNamedDownToTheMember() throws {
        let fixture = try ReleaseFixture(
            buildCommand: ReleaseFixture.standInBuild + " && date +%s.%N >> out/{target}/hello")
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        let result = try relctl(["reproduce", "v1.0.0", "--json"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        let report = try JSONDecoder().decode(Report.self, from: Data(result.stdout.utf8))
        #expect(!report.reproducible)
        let archive = try #require(report.files.first { $0.name == Self.linuxArchive })
        #expect(archive.status == "differs")
        let members = archive.archive?.members ?? []
        #expect(members.map(\.path) == ["\(Self.linuxFolder)/bin/hello"], "\(members.map(\.path))")
        #expect(Set(members.first?.fields.map(\.field) ?? []) == ["sha256"], "\(members)")
        // diffoscope (install-deps --test) is called for the full report of each differing file.
        #expect(archive.diffoscope?.contains("\(Self.linuxFolder)/bin/hello") == true, "\(archive)")
        #expect(result.stderr.contains("v1.0.0 is not reproducible: \(Self.linuxArchive): differs"), "\(result)")
        #expect(result.stderr.contains("\(Self.linuxFolder)/bin/hello: sha256 "), "\(result)")
        // The SBOM lists the binary's digest: its first differing line is shown.
        #expect(result.stderr.contains("demo-v1.0.0-x86_64-unknown-linux-gnu.cdx.json: differs"), "\(result)")
        #expect(result.stderr.contains("      line "), "\(result)")
        let last = Self.lastLine(result.stderr)
        #expect(
            last.contains("NOT reproducible")
                && last.contains("\(Self.linuxArchive) differs [\(Self.linuxFolder)/bin/hello]"), "\(last)")
    }

    @Test func aMemberChangedAfterTheReleaseIsNamed() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        let dist = fixture.url.appendingPathComponent("dist")
        // Unpacked, one file changed, packed again with GNU tar (times and modes kept).
        let tamper = """
            set -e
            mkdir x && tar -xzf "$A" -C x && printf 'evil\\n' >> "x/$F/README.md"
            tar -czf "$A" -C x "$F" && rm -rf x
            """
        #expect(try sh(tamper, in: dist, environment: ["A": Self.linuxArchive, "F": Self.linuxFolder]).status == 0)

        // SHA256SUMS left as released: the rebuild matches it, the published file does not.
        let altered = try relctl(["reproduce", "v1.0.0", "--json"], in: fixture.url)
        #expect(altered.status == 1, "\(altered)")
        let alteredReport = try JSONDecoder().decode(Report.self, from: Data(altered.stdout.utf8))
        let file = try #require(alteredReport.files.first { $0.name == Self.linuxArchive })
        #expect(file.status == "altered")
        #expect(file.archive?.members.contains { $0.path == "\(Self.linuxFolder)/README.md" } == true, "\(file)")
        #expect(file.archive?.members.contains { $0.path.hasSuffix("/bin/hello") } == false, "\(file)")

        // SHA256SUMS rewritten to match, as someone covering their tracks would: the rebuild differs.
        #expect(
            try sh(
                "sed -i \"/ $A\\$/d\" SHA256SUMS && sha256sum \"$A\" >> SHA256SUMS", in: dist,
                environment: ["A": Self.linuxArchive]
            ).status == 0)
        let differs = try relctl(["reproduce", "v1.0.0"], in: fixture.url)
        #expect(differs.status == 1, "\(differs)")
        #expect(differs.stderr.contains("\(Self.linuxArchive): differs"), "\(differs)")
        #expect(differs.stderr.contains("\(Self.linuxFolder)/README.md: size "), "\(differs)")
        #expect(!differs.stderr.contains("\(Self.linuxFolder)/bin/hello:"), "\(differs)")
    }

    /// Issue 39, finding 12: the comparison has a cap. Before it, an archive of 200,000 members
    /// took 90 s and growing memory; past the cap nothing is compared and the error says why.
    @Test func anArchiveOfTooManyMembersIsNotComparedAndNamesTheLimit() throws {
        let fixture = try ReleaseFixture()
        #expect(try relctl(["release", "v1.0.0"], in: fixture.url).status == 0)
        let dist = fixture.url.appendingPathComponent("dist")
        // The published archive swapped for one of 100,001 empty members (a few hundred kB).
        let flood = """
            import sys, tarfile, io
            with tarfile.open(sys.argv[1], "w:gz") as archive:
                for index in range(100001):
                    info = tarfile.TarInfo(f"flood/{index}")
                    archive.addfile(info, io.BytesIO(b""))
            """
        let made = try run("python3", ["-c", flood, dist.appendingPathComponent(Self.linuxArchive).path])
        try #require(made.status == 0, "\(made)")
        let result = try relctl(["reproduce", "v1.0.0"], in: fixture.url)
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stderr.contains(Self.linuxArchive) && result.stderr.contains("more than 100000 members"),
            "\(result.stderr.suffix(2000))")
    }

    @Test func unknownTagsAndMissingChecksumsAreBadInput() throws {
        let fixture = try ReleaseFixture()
        let unknown = try relctl(["reproduce", "v9.9.9"], in: fixture.url)
        #expect(unknown.status == 2 && unknown.stderr.contains("tag v9.9.9 is not in this repository"), "\(unknown)")
        try fixture.repository.git("tag", "v1.0.0")
        let noSums = try relctl(["reproduce", "v1.0.0"], in: fixture.url)
        #expect(noSums.status == 2 && noSums.stderr.contains("dist/"), "\(noSums)")
        let http = try relctl(["reproduce", "v1.0.0", "--from", "http://example.com/releases/"], in: fixture.url)
        #expect(http.status == 2 && http.stderr.contains("plain http is only accepted for a loopback host"), "\(http)")
    }
}
