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

@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct ConfigLoaderTests {
    func parse(_ text: String) throws -> RelctlConfig {
        try ConfigLoader.parse(
            try TOMLDocument(text: text, path: "relctl.toml"), root: URL(fileURLWithPath: "/project"))
    }

    func problems(_ text: String) -> [String] {
        do {
            _ = try parse(text)
            return []
        } catch let error as RelctlError {
            #expect(error.exitCode == .badInput)
            return error.diagnostics.map(\.description)
        } catch {
            return ["unexpected \(error)"]
        }
    }

    @Test func fullConfigIsTyped() throws {
        let config = try parse(
            """
            [project]
            name = "velostream"
            tag-format = "release-{version}"

            [[version]]
            path = "Cargo.toml"
            [[version]]
            path = "sdk/version.txt"
            kind = "regex"
            pattern = 'VERSION = "(?<version>[^"]+)"'

            [build]
            command = "cargo build --release --target {target}"
            binaries = ["velo-sql", "velo-cli"]
            binary-dir = "target/{target}/release"

            [[target]]
            triple = "x86_64-unknown-linux-musl"
            [[target]]
            triple = "x86_64-pc-windows-msvc"
            links = "copy"

            [archive]
            files = ["README.md", { from = "docs/INSTALL.md", to = "INSTALL.md" }]
            trees = [{ from = "demo", to = "demo" }]

            [[archive.symlink]]
            path = "target/release/{binary}"
            to = "../../bin/{binary}"
            """)
        #expect(config.project.name == "velostream")
        #expect(config.project.tagFormat.prefix == "release-")
        #expect(config.versions.map(\.kind) == ["cargo", "regex"])
        #expect(config.build.binaries == ["velo-sql", "velo-cli"])
        #expect(config.targets.map(\.triple) == ["x86_64-unknown-linux-musl", "x86_64-pc-windows-msvc"])
        #expect(config.targets[1].links == .copy)
        #expect(config.archive.files.map(\.to.text) == ["README.md", "INSTALL.md"])
        #expect(config.archive.symlinks.first?.to.render(["binary": "velo-sql"]) == "../../bin/velo-sql")
        #expect(config.archive.setupEnv)
        #expect(config.release.branches == ["main", "master"])
    }

    @Test func unknownKeySuggestsTheClosestWithItsLine() {
        #expect(
            problems("[project]\nname = \"x\"\ntag-fromat = \"v{version}\"\n") == [
                "relctl.toml:3: unknown key `tag-fromat` in [project] (did you mean `tag-format`?)"
            ])
        #expect(
            problems(
                "[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\n[[target]]\ntriple = \"aarch64-apple-darwin\"\nrunnner = \"x\"\n"
            ) == [
                "relctl.toml:5: unknown key `runnner` in [target] (did you mean `runner`?)"
            ])
        #expect(
            problems("[achive]\nname = \"x\"\n").first?.contains(
                "unknown key `achive` at the top level (did you mean `archive`?)") == true)
    }

    @Test func everyProblemIsReportedAtOnce() {
        let found = problems(
            """
            [project]
            tag-format = "v{vers}"

            [[version]]
            path = "x.cfg"

            [build]
            command = "make {targt}"
            binaries = "velo"

            [[target]]
            triple = "x86_64-unknown-linux-gnu"
            format = "tar.bz2"

            [archive]
            setup-env = "yes"
            """)
        #expect(found.count == 5, "\(found)")
        #expect(found.contains { $0.hasPrefix("relctl.toml:2:") && $0.contains("{version}") })
        #expect(found.contains { $0.hasPrefix("relctl.toml:5:") && $0.contains("cannot tell the manifest kind") })
        #expect(found.contains { $0.hasPrefix("relctl.toml:8:") && $0.contains("did you mean `{target}`") })
        #expect(found.contains { $0.hasPrefix("relctl.toml:13:") && $0.contains("unknown archive format `tar.bz2`") })
        #expect(found.contains { $0.hasPrefix("relctl.toml:16:") && $0.contains("must be true or false") })
    }

    @Test func ciSetupRefusesTemplateExpressions() {
        let found = problems("[ci]\nsetup = [\n  'echo ok',\n  'echo ${{ github.ref_name }}',\n]\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("relctl.toml:2:") == true)
        #expect(found.first?.contains("template injection") == true)
    }

    @Test func binaryPlaceholderOnlyInSymlinks() {
        let found = problems("[archive]\nname = \"{project}-{binary}\"\n")
        #expect(found.first?.contains("`{binary}` cannot be used here") == true)
    }

    @Test func shellBracesInTemplatesStayLiteral() throws {
        let command = try Template(
            "cargo build --target ${RELCTL_TARGET} && awk '{print $1}' {a,b} && grep -E 'x{2}' && find . -exec ls {} ; # {target}",
            allowed: Template.perTarget)
        #expect(command.placeholders == ["target"])
        #expect(
            command.render(["target": "x86_64-unknown-linux-gnu", "RELCTL_TARGET": "no"])
                == "cargo build --target ${RELCTL_TARGET} && awk '{print $1}' {a,b} && grep -E 'x{2}' && find . -exec ls {} ; # x86_64-unknown-linux-gnu"
        )
        // `${target}` is the shell's, not relctl's.
        #expect(Template("echo ${target}-{target}").render(["target": "t"]) == "echo ${target}-t")
        #expect(throws: ConfigError.self) { try Template("make {targt}", allowed: Template.perTarget) }
        #expect(throws: ConfigError.self) { try Template("{project", allowed: Template.perTarget) }
    }

    @Test func buildEnvAndInlineTreeProblemsNameTheirLine() {
        let found = problems(
            """
            [build]
            env = { TARGET_DIR = "out/{targt}" }

            [archive]
            files = ["{projct}.md"]
            trees = [
                { to = "demo" },
            ]
            """)
        #expect(
            found == [
                "relctl.toml:2: unknown placeholder `{targt}` in `out/{targt}`; did you mean `{target}`?",
                "relctl.toml:5: `files`: unknown placeholder `{projct}` in `{projct}.md`; did you mean `{project}`?",
                "relctl.toml:6: each table in `trees` needs `from` (and optionally `to`)",
            ])
    }

    @Test(arguments: ["../release.yml", "/etc/release.yml", ".github/../../x.yml", ""])
    func workflowOutsideTheProjectIsRejected(_ path: String) {
        let found = problems("[ci]\nworkflow = \"\(path)\"\n")
        #expect(
            found == [
                "relctl.toml:2: `ci.workflow` must be a file path inside the project, relative to its root (e.g. `.github/workflows/release.yml`), found `\(path)`"
            ])
    }

    @Test func crlfConfigProblemsNameTheirLine() {
        #expect(
            problems("[project]\r\nname = \"x\"\r\n\r\ntag-fromat = \"v{version}\"\r\n") == [
                "relctl.toml:4: unknown key `tag-fromat` in [project] (did you mean `tag-format`?)"
            ])
    }

    @Test func absoluteBinaryDirIsRejected() {
        #expect(
            problems(
                "[build]\nbinary-dir = \"/tmp/out\"\n[[target]]\ntriple = \"x86_64-unknown-linux-gnu\"\nbinary-dir = \"/opt/{target}\"\n"
            ) == [
                "relctl.toml:2: `binary-dir` must be relative to the project root (like `target/{target}/release`), found `/tmp/out`",
                "relctl.toml:5: `binary-dir` must be relative to the project root (like `target/{target}/release`), found `/opt/{target}`",
            ])
    }

    @Test func wrongTypeIsReportedOnce() {
        #expect(
            problems("[[target]]\ntriple = 5\n[[version]]\npath = [\"VERSION\"]\n") == [
                "relctl.toml:4: `version[0].path` must be a string, found an array",
                "relctl.toml:2: `target[0].triple` must be a string, found an integer",
            ])
    }

    @Test func configThatIsADirectoryIsNamedAsOne() throws {
        try withTemporaryDirectory { dir in
            try FileManager.default.createDirectory(
                at: dir.url.appendingPathComponent("relctl.toml"), withIntermediateDirectories: true)
            let error = #expect(throws: ConfigError.self) {
                try TOMLDocument(
                    file: ProjectFile.open(
                        location: dir.url.appendingPathComponent("relctl.toml"), shown: "relctl.toml"))
            }
            #expect(
                error?.diagnostics.map(\.description) == [
                    "relctl.toml: is a directory, not a TOML file; name the file itself"
                ])
        }
    }

    @Test(arguments: ["", "../../evil", "a b", "x86_64/linux"])
    func tripleThatCannotNameAFileIsRejected(_ triple: String) {
        #expect(
            problems("[[target]]\ntriple = \"\(triple)\"\nrunner = \"x\"\nformat = \"tar.gz\"\n") == [
                "relctl.toml:2: target triple `\(triple)` may only hold letters, digits, `-`, `_` and `.` (e.g. `x86_64-unknown-linux-musl`)"
            ])
    }

    @Test func syntaxErrorNamesTheLine() {
        #expect(throws: ConfigError.self) {
            try TOMLDocument(text: "[project]\nname = \"x\nother = 1\n", path: "relctl.toml")
        }
        do {
            _ = try TOMLDocument(text: "[project]\nname = \"x\"\n\nname = \"y\"\n", path: "relctl.toml")
            Issue.record("a duplicate key must not parse")
        } catch let error as ConfigError {
            #expect(error.diagnostics.first?.file == "relctl.toml")
            #expect(error.diagnostics.first?.line == 4)
            #expect(error.message.contains("TOML syntax error"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func missingFileSuggestsInit() throws {
        try withTemporaryDirectory { dir in
            let context = Context(workingDirectory: dir.url)
            #expect {
                try ConfigLoader.load(path: nil, context: context)
            } throws: { error in
                let error = error as? ConfigError
                return error?.exitCode == .badInput
                    && error?.message
                        == "relctl.toml: config file not found; run `relctl init` to create one, or pass --config PATH"
            }
            // Commands that work without a config get the defaults.
            let defaults = try ConfigLoader.loadIfPresent(path: nil, context: context)
            #expect(!defaults.isFromFile)
            #expect(defaults.project.tagFormat == .default)
        }
    }

    @Test func unknownTripleNeedsRunnerAndFormat() throws {
        let config = try parse(
            "[[target]]\ntriple = \"mips-weird-plan9\"\n[[target]]\ntriple = \"riscv64-custom-elf\"\nrunner = \"self-hosted\"\nformat = \"tar.xz\"\n"
        )
        #expect(throws: ProblemList.self) { try TargetResolver.resolveAll(config) }
        let resolved = try TargetResolver.resolve(config.targets[1])
        #expect(!resolved.isRecognized)
        #expect(resolved.runner == "self-hosted")
        #expect(resolved.format == "tar.xz")
    }

    @Test func targetDefaultsFollowTheSeed() throws {
        let expectations: [(String, String, String, LinksPolicy, String)] = [
            ("x86_64-unknown-linux-musl", "ubuntu-latest", "tar.gz", .keep, ""),
            ("aarch64-unknown-linux-musl", "ubuntu-latest", "tar.gz", .keep, ""),
            // Not macos-13: GitHub retired it on 2025-12-04 (issue 40, finding 15).
            ("x86_64-apple-darwin", "macos-15-intel", "tar.gz", .keep, ""),
            ("aarch64-apple-darwin", "macos-14", "tar.gz", .keep, ""),
            ("x86_64-pc-windows-msvc", "windows-latest", "zip", .copy, ".exe"),
        ]
        for (triple, runner, format, links, suffix) in expectations {
            let target = try TargetResolver.resolve(TargetSettings(triple: triple))
            #expect(target.runner == runner)
            #expect(target.format == format)
            #expect(target.links == links)
            #expect(target.executableName("velo") == "velo" + suffix)
        }
        #expect(try TargetResolver.resolve(TargetSettings(triple: "aarch64-apple-darwin")).os == "macos")
    }
}
