import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// What relctl takes from a channel plugin's answer (issue 39, findings 8 and 9): a plugin may
/// name only new files it wrote into dist during its run, never the release's archives,
/// `SHA256SUMS`, `manifest.json`, a signature's name or another channel's file (exit 2 naming the
/// plugin and the file, nothing published or replaced); and its stdout is read only up to 16 MiB,
/// so a plugin printing without end is stopped (exit 2) while relctl's memory stays small.
@Suite("plugin answers", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct PluginAnswerCLITests {
    static let archive = "velostream-v1.0.0-x86_64-unknown-linux-musl.tar.gz"

    /// A TOML basic string (JSON's escapes are TOML's, once `/` is left alone).
    static func toml(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return String(decoding: try encoder.encode(text), as: UTF8.self)
    }

    /// A fixture whose only channel is the plugin `sneaky`, running `script` under `sh -c`.
    static func fixture(_ script: String) throws -> ChannelFixture {
        let fixture = try ChannelFixture(
            channels: """

                [[channel]]
                name = "sneaky"
                command = ["sh", "-c", \(try Self.toml(script))]

                """)
        try fixture.packageAndChecksum()
        return fixture
    }

    /// Every file of dist/ with its bytes' digest, to show nothing changed.
    static func snapshot(_ fixture: ChannelFixture) throws -> String {
        try sh("find . -type f | sort | xargs sha256sum", in: fixture.dist).stdout
    }

    @Test(arguments: [
        "SHA256SUMS", "manifest.json", archive, archive + ".sig", "SHA256SUMS.minisig",
        "velostream-v1.0.0.intoto.jsonl",
    ])
    func aPluginCannotClaimAReservedName(name: String) throws {
        // The plugin writes its own file of that name into the staging folder and claims it.
        let fixture = try Self.fixture(
            #"cat >/dev/null; printf 'forged\n' > "$RELCTL_DIST/$NAME"; printf '{"files": ["%s"]}' "$NAME""#)
        let before = try Self.snapshot(fixture)
        let result = try relctl(
            ["channel", "sneaky", "--tag", "v1.0.0"], in: fixture.url,
            environment: ChannelFixture.environment.merging(["NAME": name]) { $1 })
        #expect(result.status == 2, "\(name): \(result)")
        #expect(result.stderr.contains("channel `sneaky`") && result.stderr.contains("`\(name)`"), "\(result)")
        #expect(try Self.snapshot(fixture) == before, "\(name): dist/ changed")
    }

    @Test func aPluginCannotClaimAFileThatWasInDistBefore() throws {
        // Written by an earlier step (here: by hand), not by the plugin.
        let fixture = try Self.fixture(
            #"cat >/dev/null; printf 'mine now\n' > "$RELCTL_DIST/notes.txt"; echo '{"files": ["notes.txt"]}'"#)
        try Data("an earlier step's file\n".utf8).write(to: fixture.dist.appendingPathComponent("notes.txt"))
        let before = try Self.snapshot(fixture)
        let result = try relctl(
            ["channel", "sneaky", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("channel `sneaky`") && result.stderr.contains("`notes.txt`"), "\(result)")
        #expect(try Self.snapshot(fixture) == before)
    }

    @Test func aPluginsOwnNewFileIsListedAndTheSameRunAgainReplacesNothing() throws {
        let fixture = try Self.fixture(
            #"cat >/dev/null; printf 'announced\n' > "$RELCTL_DIST/announce.md"; echo '{"files": ["announce.md"]}'"#)
        for _ in 0..<2 {
            let result = try relctl(
                ["channel", "sneaky", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
            #expect(result.status == 0, "\(result)")
        }
        let digest = try sh("sha256sum announce.md", in: fixture.dist).stdout.prefix(64)
        #expect(try fixture.sums()["announce.md"] == String(digest))
    }

    @Test func inAReleaseAPluginCannotClaimTheArchivesOrAnotherChannelsFile() throws {
        for claimed in ["demo-v1.0.0-x86_64-unknown-linux-gnu.tar.gz", "demo-1.0.0.tgz"] {
            let script = #"cat >/dev/null; printf '{"files": ["%s"]}' "$NAME""#
            let fixture = try ReleaseFixture(
                release: """

                    [[chart]]
                    path = "charts/demo"

                    [[channel]]
                    name = "sneaky"
                    command = ["sh", "-c", \(try Self.toml(script))]
                    """)
            try fixture.repository.commit(
                "chore: chart",
                files: ["charts/demo/Chart.yaml": "apiVersion: v2\nname: demo\nversion: 1.0.0\nappVersion: \"1.0.0\"\n"]
            )
            try fixture.repository.git("push", "-q", "origin", "main")
            let result = try relctl(["release", "v1.0.0"], in: fixture.url, environment: ["NAME": claimed])
            #expect(result.status == 2, "\(claimed): \(result)")
            #expect(result.stderr.contains("channel `sneaky`") && result.stderr.contains("`\(claimed)`"), "\(result)")
            #expect(try fixture.localTags().isEmpty, "\(claimed): tagged")
            let dist = (try folderNames(fixture.url.path + "/dist"))
            #expect(dist.isEmpty, "\(claimed): dist/ holds \(dist)")
        }
    }

    @Test func aPluginPrintingWithoutEndIsStoppedAndRelctlsMemoryStaysSmall() throws {
        let fixture = try Self.fixture(#"cat >/dev/null; echo $$ > "$PIDFILE"; exec yes"#)
        let pidFile = fixture.url.appendingPathComponent("plugin.pid")
        // GNU time reports relctl's peak resident set (and its children's, `yes` being tiny).
        let result = try run(
            "time", ["-v", relctlBinary.path, "channel", "sneaky", "--tag", "v1.0.0"], in: fixture.url,
            environment: ChannelFixture.environment.merging(["NO_COLOR": "1", "PIDFILE": pidFile.path]) { $1 })
        #expect(result.status == 2, "\(result.stdout.prefix(500)) \(result.stderr.suffix(3000))")
        #expect(
            result.stderr.contains("channel `sneaky` printed more than 16 MiB on stdout"),
            "\(result.stderr.suffix(3000))")
        let line = result.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size (kbytes):") }
        let kilobytes = line.flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        #expect((kilobytes ?? .max) < 200_000, "peak RSS \(kilobytes.map(String.init) ?? "?") kB")
        // The plugin (`yes`, which took the shell's pid) did not outlive relctl.
        let pid = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            !pid.isEmpty && !FileManager.default.fileExists(atPath: "/proc/\(pid)/cmdline"), "pid \(pid) still runs")
    }
}
