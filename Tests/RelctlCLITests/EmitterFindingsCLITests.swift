import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

@testable import RelctlBasics

/// The round-4 findings on generated text (issue 39, findings 1, 4 and 15; issue 40 items 18 and
/// the formula name), driven through the built binary and judged by the real readers: ruby for
/// the formula, PyYAML (YAML 1.1) and ruamel.yaml (YAML 1.2) for `.gitlab-ci.yml`, and the
/// PowerShell verbatim-string grammar for its Windows lines (pwsh is not installable here).
@Suite("Emitter findings", .timeLimit(.minutes(30)), .removesTemporaries)
struct EmitterFindingsCLITests {
    static let hostileName = #"x < Formula; system("touch PWNED"); class Y"#

    /// Finding 1: a project name that is Ruby never reaches the `class` line. Without
    /// `[homebrew] name`, `check` and every command refuse the config (exit 2, naming the key);
    /// with one, the class name is Homebrew's derivation of it and ruby loads the formula without
    /// running anything.
    @Test func aProjectNameThatIsRubyNeverBecomesTheFormulaClass() throws {
        let fixture = try ChannelFixture()
        let config = try fixture.directory.read("relctl.toml").replacingOccurrences(
            of: "name = \"velostream\"", with: "name = \(QuotedString.basic(Self.hostileName))")
        _ = try fixture.directory.write("relctl.toml", config)
        let refused = try relctl(["check"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("set `name` in [homebrew]"), "\(refused.stderr)")
        #expect(refused.stderr.contains("set `name` in [scoop]"), "\(refused.stderr)")

        let named = config.replacingOccurrences(of: "[homebrew]\n", with: "[homebrew]\nname = \"velo-stream@2\"\n")
            .replacingOccurrences(of: "[scoop]\n", with: "[scoop]\nname = \"velostream\"\n")
        _ = try fixture.directory.write("relctl.toml", named)
        try fixture.packageAndChecksum()
        let written = try relctl(
            ["channel", "homebrew", "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(written.status == 0, "\(written)")
        let formula = fixture.dist.appendingPathComponent("homebrew/Formula/velo-stream@2.rb")
        let text = try String(contentsOf: formula, encoding: .utf8)
        #expect(text.hasPrefix("class VeloStreamAT2 < Formula\n"), "\(text)")
        let loaded = try run(
            "ruby", [ChannelFixture.fixture("homebrew_dsl_stub.rb").path, formula.path, "VeloStreamAT2"],
            in: fixture.url)
        #expect(loaded.status == 0, "\(loaded)")
        #expect(!fixture.directory.exists("PWNED"), "loading the formula ran code")

        let badName = named.replacingOccurrences(of: "name = \"velo-stream@2\"", with: "name = \"a b\"")
        _ = try fixture.directory.write("relctl.toml", badName)
        let check = try relctl(["check"], in: fixture.url, environment: ChannelFixture.environment)
        #expect(
            check.status == 2 && check.stderr.contains("[homebrew] `name` \"a b\" must be a formula name"), "\(check)")
    }

    /// Issue 40, item 18: `[project]` description, license and homepage reach the formula and
    /// the Scoop manifest when `[homebrew]`/`[scoop]` do not set their own.
    @Test func formulaAndManifestTakeTheProjectsDescriptionLicenseAndHomepage() throws {
        let fixture = try ChannelFixture(
            channels: """

                [homebrew]
                tap = "/nonexistent/tap.git"

                [scoop]
                bucket = "/nonexistent/bucket.git"
                name = "charm-velostream"

                """)
        let config = try fixture.directory.read("relctl.toml").replacingOccurrences(
            of: "name = \"velostream\"\n",
            with:
                "name = \"velostream\"\ndescription = \"Streaming SQL engine\\nThe long text.\"\nlicense = \"MIT\"\nhomepage = \"https://velostream.example\"\n"
        )
        _ = try fixture.directory.write("relctl.toml", config)
        try fixture.packageAndChecksum()
        for channel in ["homebrew", "scoop"] {
            let written = try relctl(
                ["channel", channel, "--tag", "v1.0.0"], in: fixture.url, environment: ChannelFixture.environment)
            #expect(written.status == 0, "\(written)")
        }
        let formula = fixture.dist.appendingPathComponent("homebrew/Formula/velostream.rb")
        let loaded = try run("ruby", [ChannelFixture.fixture("homebrew_dsl_stub.rb").path, formula.path, "Velostream"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(loaded.stdout.utf8)) as? [String: Any])
        #expect(
            object["fields"] as? [String: String] == [
                "desc": "Streaming SQL engine", "version": "1.0.0", "license": "MIT",
                "homepage": "https://velostream.example",
            ], "\(loaded)")
        let manifestURL = fixture.dist.appendingPathComponent("scoop/bucket/charm-velostream.json")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        #expect(manifest["description"] as? String == "Streaming SQL engine")
        #expect(manifest["license"] as? String == "MIT")
        #expect(manifest["homepage"] as? String == "https://velostream.example")
    }

    /// The pipeline as PyYAML (1.1) and ruamel.yaml (1.2) read it, as JSON.
    static func readBoth(_ dir: TemporaryDirectory) throws -> [String: [String: Any]] {
        let script = """
            import json, sys, yaml
            from ruamel.yaml import YAML
            text = open(sys.argv[1], encoding="utf-8").read()
            print(json.dumps({"1.1": yaml.safe_load(text), "1.2": YAML(typ="safe", pure=True).load(text)}, default=str))
            """
        let result = try run("python3", ["-c", script, ".gitlab-ci.yml"], in: dir.url)
        try #require(result.status == 0, "the YAML readers refused .gitlab-ci.yml: \(result)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
    }

    /// Finding 15: script lines YAML 1.1 reads as something else (`12:30` a number, `<<` a merge
    /// key, `yes` a boolean) are quoted, so both readers see the lines as written.
    @Test func gitLabScriptLinesReadTheSameInYAML11And12() throws {
        try withTemporaryDirectory { dir in
            let lines = ["12:30", "<<", "yes", "0755", "~"]
            let steps = lines.map { "[[ci.setup]]\nrun = \(QuotedString.basic($0))\n" }.joined(separator: "\n")
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu"], extra: "[ci]\nproviders = [\"gitlab\"]\n\n" + steps)
            let generated = try relctl(["ci", "generate", "--provider", "gitlab"], in: dir.url)
            #expect(generated.status == 0, "\(generated)")
            let read = try Self.readBoth(dir)
            for version in ["1.1", "1.2"] {
                let job = try #require(read[version]?["plan"] as? [String: Any], "\(version): \(read)")
                let script = job["script"] as? [Any] ?? []
                #expect(script.prefix(lines.count).map { $0 as? String } == lines, "YAML \(version): \(script)")
            }
        }
    }

    /// Finding 4: on a Windows runner a `[[ci.setup]]` env value is a PowerShell verbatim string;
    /// U+2018–U+201B end such a string like `'` does, so each is doubled and the value stays one
    /// literal.
    @Test func gitLabPowerShellValuesKeepTypographicQuotesInside() throws {
        let value = "a\u{2019}; New-Item PWNED; #\u{2018}b\u{201B}\u{201A}'"
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-pc-windows-msvc"],
                extra: """
                    [ci]
                    providers = ["gitlab"]

                    [[ci.setup]]
                    run = "relctl --version"
                    env = { VALUE = \(QuotedString.basic(value)) }

                    """)
            let generated = try relctl(["ci", "generate", "--provider", "gitlab"], in: dir.url)
            #expect(generated.status == 0, "\(generated)")
            let read = try Self.readBoth(dir)
            let job = try #require(read["1.1"]?["build:x86_64-pc-windows-msvc"] as? [String: Any])
            let item = try #require((job["script"] as? [String])?.first)
            let line = try #require(item.split(separator: "\n").first.map(String.init))
            #expect(line.hasPrefix("$env:VALUE = "), "\(item)")
            let literal = Substring(line.dropFirst("$env:VALUE = ".count))
            let (parsed, rest) = try #require(PowerShellGrammar.verbatimString(literal), "\(line)")
            #expect(sameScalars(parsed, value), "PowerShell reads \(parsed.debugDescription)")
            #expect(rest.isEmpty, "the string ended early; PowerShell runs \(rest.debugDescription)")
        }
    }

    /// Issue 40, finding 15: an Intel macOS target does not default to `macos-13`, which GitHub
    /// retired on 2025-12-04 (a job asking for it waits for a runner that never comes).
    @Test func intelMacTargetsDefaultToACurrentIntelRunner() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(in: dir, targets: ["x86_64-apple-darwin", "aarch64-apple-darwin"])
            let matrix = try relctl(["matrix", "--format", "github"], in: dir.url)
            #expect(matrix.status == 0, "\(matrix)")
            #expect(
                matrix.stdout.contains(#""target":"x86_64-apple-darwin","runner":"macos-15-intel""#), "\(matrix.stdout)"
            )
            #expect(!matrix.stdout.contains("macos-13"), "\(matrix.stdout)")
        }
    }

    /// Issue 40 (LOW): a Rust project's generated CI adds the target's standard library before
    /// `relctl build` (GitHub's runners have rustup; GitLab's Swift image gets it installed), and
    /// an ARM Linux target built by plain cargo on an x86_64 runner is warned about.
    @Test func rustProjectsGetTheirTargetInCIAndACrossBuildWarning() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"],
                build: "[build]\ncommand = \"cargo build --release --target {target}\"\nbinaries = [\"demo\"]\n",
                extra: "[ci]\nproviders = [\"github\", \"gitlab\"]\nworkflow = \".github/workflows/release.yml\"\n")
            let generated = try relctl(["ci", "generate"], in: dir.url)
            #expect(generated.status == 0, "\(generated)")
            let warning = "aarch64-unknown-linux-gnu: its build runs `cargo` on ubuntu-latest, an x86_64 runner"
            #expect(generated.stderr.components(separatedBy: warning).count == 2, "\(generated.stderr)")
            let workflow = try dir.read(".github/workflows/release.yml")
            #expect(
                workflow.contains("      - name: Add the Rust target\n        run: rustup target add \"$TARGET\"\n"),
                "\(workflow)")
            let read = try Self.readBoth(dir)
            let job = try #require(read["1.2"]?["build:aarch64-unknown-linux-gnu"] as? [String: Any])
            let script = job["script"] as? [String] ?? []
            let rustup = try #require(script.firstIndex(of: "rustup target add \"$TARGET\""), "\(script)")
            let build = try #require(script.firstIndex { $0.hasPrefix("relctl build") }, "\(script)")
            #expect(rustup < build)
        }
    }

    /// Issue 40 (LOW): a Go project's GitLab build jobs install Go where the image has none.
    @Test func goProjectsGetGoInTheGitLabBuildJob() throws {
        try withTemporaryDirectory { dir in
            try MatrixFixtures.project(
                in: dir, targets: ["x86_64-unknown-linux-gnu"],
                build: "[build]\ncommand = \"go build -o dist/{target}/ ./...\"\nbinaries = [\"demo\"]\n",
                extra: "[ci]\nproviders = [\"gitlab\"]\n")
            let generated = try relctl(["ci", "generate", "--provider", "gitlab"], in: dir.url)
            #expect(generated.status == 0, "\(generated)")
            let read = try Self.readBoth(dir)
            let job = try #require(read["1.1"]?["build:x86_64-unknown-linux-gnu"] as? [String: Any])
            let script = job["script"] as? [String] ?? []
            #expect(script.contains { $0.contains("apt-get install -y -qq -o DPkg::Lock::Timeout=600 golang-go") }, "\(script)")
        }
    }
}
