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

/// The channel rules that need no tool to judge them: Helm's .helmignore semantics, the config
/// tables, the plugin answer's validation, and the names and literals the writers produce.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ChannelTests {
    func ignore(_ rules: String) throws -> HelmIgnore { try HelmIgnore(text: rules, displayPath: ".helmignore") }

    @Test func helmIgnoreFollowsHelmsRules() throws {
        let rules = try ignore("# comment\n\n*.swp\n/build/\nsecrets/\nconfig/*.local\n")
        // A pattern without `/` matches the base name anywhere.
        #expect(rules.ignores("templates/x.swp", isFolder: false))
        // `/build/` is anchored and only matches folders.
        #expect(rules.ignores("build", isFolder: true))
        #expect(!rules.ignores("build", isFolder: false))
        #expect(!rules.ignores("templates/build", isFolder: true))
        // `config/*.local` is structural: `*` does not cross `/`.
        #expect(rules.ignores("config/a.local", isFolder: false))
        #expect(!rules.ignores("config/deep/a.local", isFolder: false))
        #expect(rules.ignores("charts/x/secrets", isFolder: true))
        // The default rule: dot files in templates/.
        #expect(try ignore("").ignores("templates/.env", isFolder: false))
        #expect(!(try ignore("").ignores("templates/env", isFolder: false)))
        #expect(!(try ignore("").ignores(".helmignore", isFolder: false)))
        #expect(throws: ChannelError.self) { try ignore("docs/**/x\n") }
    }

    @Test func aNegatedRuleIgnoresWhatItDoesNotMatchAsHelmDoes() throws {
        // helm's pkg/ignore: a negated rule that does not match the path ignores it.
        let rules = try ignore("!values.yaml\n")
        #expect(!rules.ignores("values.yaml", isFolder: false))
        #expect(rules.ignores("README.md", isFolder: false))
    }

    func parse(_ text: String) throws -> RelctlConfig { try ConfigLoaderTests().parse(text) }

    @Test func channelTablesAreReadAndChartsJoinTheVersionLocations() throws {
        let config = try parse(
            """
            [project]
            name = "velostream"
            [[chart]]
            path = "charts/velostream"
            repository = "oci://ghcr.io/acme/charts"
            [nix]
            enabled = true
            [homebrew]
            tap = "acme/homebrew-tap"
            [scoop]
            bucket = "git@example.com:acme/bucket.git"
            [[channel]]
            name = "announce"
            command = ["python3", "channels/announce.py"]
            """)
        #expect(config.channels.charts.first?.repository?.repository == "acme/charts")
        #expect(config.channels.nix)
        #expect(config.channels.homebrew?.gitURL == "https://github.com/acme/homebrew-tap.git")
        #expect(config.channels.scoop?.gitURL == "git@example.com:acme/bucket.git")
        #expect(
            config.channels.plugins == [
                .init(name: "announce", command: ["python3", "channels/announce.py"], line: 12)
            ])
        #expect(
            config.versions.map { "\($0.path) \($0.kind)" } == [
                "charts/velostream/Chart.yaml helm", "charts/velostream/Chart.yaml helm-app-version",
            ])
        let ids = try ChannelRegistry.configured(config, environment: ["PATH": ""]).map(\.id)
        #expect(ids == ["chart", "nix", "homebrew", "scoop", "announce"])
    }

    @Test func badChannelTablesAreReportedTogether() {
        let found = ConfigLoaderTests().problems(
            """
            [[chart]]
            path = "../outside"
            [[chart]]
            repository = "ghcr.io/acme/charts"
            [homebrew]
            [[channel]]
            name = "Bad Name"
            [[channel]]
            name = "ok"
            comand = ["x"]
            """)
        #expect(found.contains { $0.contains("`../outside` must be a folder inside the project") }, "\(found)")
        #expect(found.contains { $0.contains("every [[chart]] needs `path`") }, "\(found)")
        #expect(found.contains { $0.contains("[homebrew] needs `tap`") }, "\(found)")
        #expect(found.contains { $0.contains("channel name `Bad Name`") }, "\(found)")
        #expect(
            found.contains { $0.contains("unknown key `comand`") && $0.contains("did you mean `command`") }, "\(found)")
    }

    @Test func pluginAnswersAreCheckedAndFilesMustStayInDist() throws {
        #expect(try ChannelAnswer.parse(Data(#"{"files":["a.md"]}"#.utf8), channel: "x").files == ["a.md"])
        #expect(throws: ChannelError.self) { try ChannelAnswer.parse(Data(), channel: "x") }
        #expect(throws: ChannelError.self) { try ChannelAnswer.parse(Data(#"{"files":"a.md"}"#.utf8), channel: "x") }
        try withTemporaryDirectory { directory in
            let dist = directory.url.appendingPathComponent("dist")
            try FileManager.default.createDirectory(at: dist, withIntermediateDirectories: true)
            _ = try directory.write("outside.txt", "secret\n")
            _ = try directory.write("dist/ok.md", "ok\n")
            try FileManager.default.createSymbolicLink(
                atPath: dist.appendingPathComponent("link.md").path, withDestinationPath: "../outside.txt")
            try ChannelRunner.validate(ChannelOutput(channel: "x", files: ["ok.md"], assets: ["ok.md"]), in: dist)
            for bad in ["link.md", "../outside.txt", "/etc/passwd", "missing.md", "./ok.md"] {
                #expect(throws: ChannelError.self, "\(bad)") {
                    try ChannelRunner.validate(ChannelOutput(channel: "x", files: [bad], assets: [bad]), in: dist)
                }
            }
        }
    }

    @Test func namesAndLiteralsAreSpelledForTheirLanguage() throws {
        #expect(try RubyEmitter.className(formula: "velostream") == "Velostream")
        #expect(try RubyEmitter.className(formula: "velo-stream_cli") == "VeloStreamCli")
        #expect(try RubyEmitter.className(formula: "c++") == "Cxx")
        #expect(RubyEmitter.string("a\"b#{x}\\") == ##""a\"b\#{x}\\""##)
        #expect(try NixEmitter.string("a\"${x}\\") == #""a\"\${x}\\""#)
        #expect(
            PlatformArchives.sri(hex: String(repeating: "0", count: 64))
                == "sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        #expect(
            HelmChartPusher.reference(
                repository: ImageReference(registry: "ghcr.io", repository: "acme/charts"), chart: "demo",
                version: "1.0.0+build.1"
            ).tag
                == "1.0.0_build.1")
    }

    @Test func chartTarHeadersAreGoUstarHeaders() throws {
        let header = try ChannelTarball.header(
            .init(name: "demo/Chart.yaml", data: Array("x".utf8)), mtime: 1_700_000_000, destination: "t")
        #expect(String(decoding: header[100..<108], as: UTF8.self) == "0000644\0")
        #expect(String(decoding: header[124..<136], as: UTF8.self) == "00000000001\0")
        #expect(String(decoding: header[257..<265], as: UTF8.self) == "ustar\000")
        #expect(header[156] == UInt8(ascii: "0") && header[155] == UInt8(ascii: " "))
        let long = String(repeating: "d/", count: 60) + "file.yaml"
        let (prefix, name) = try ChannelTarball.split(long, destination: "t")
        #expect(prefix + "/" + name == long && name.utf8.count <= 100 && prefix.utf8.count <= 155)
    }
}
