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

@Suite("Matrix, tag globs and generated files", .timeLimit(.minutes(30)), .removesTemporaries)
struct MatrixTests {
    @Test func tagGlobFollowsPrefixAndSuffix() throws {
        #expect(TagGlob.pattern(for: .default) == "v*.*.*")
        #expect(TagGlob.pattern(for: try TagFormat("{project}-v{version}", project: "sdk")) == "sdk-v*.*.*")
        #expect(TagGlob.pattern(for: try TagFormat("{version}+stable")) == "*.*.*\\+stable")
        #expect(TagGlob.pattern(for: try TagFormat("release-{version}")) == "release-*.*.*")
    }

    @Test func githubMatrixEscapesAndKeepsOrder() throws {
        let target = try TargetResolver.resolve(
            TargetSettings(triple: "x86_64-unknown-linux-musl", runner: "my \"runner\""))
        #expect(
            MatrixRenderer.github([target])
                == #"{"include":[{"target":"x86_64-unknown-linux-musl","runner":"my \"runner\"","format":"tar.gz","os":"linux","arch":"x86_64"}]}"#
                + "\n")
        #expect(MatrixRenderer.github([]) == "{\"include\":[]}\n")
    }

    @Test func generatedFileStates() {
        let body = "name: Release\non: push\n"
        let file = GeneratedFile.render(header: ["Generated."], body: body)
        #expect(GeneratedFile.state(existing: nil, generated: file) == .missing)
        #expect(GeneratedFile.state(existing: file, generated: file) == .current)
        #expect(
            GeneratedFile.state(existing: file.replacingOccurrences(of: "\n", with: "\r\n"), generated: file)
                == .current)
        let older = GeneratedFile.render(header: ["Generated."], body: "name: Old\n")
        #expect(GeneratedFile.state(existing: older, generated: file) == .stale)
        let edited = older.replacingOccurrences(of: "Old", with: "Mine")
        #expect(GeneratedFile.state(existing: edited, generated: file) == .handEdited)
        // No digest header at all: relctl never wrote it.
        #expect(GeneratedFile.state(existing: body, generated: file) == .handWritten)
        // The header itself may not be tampered with either.
        #expect(!GeneratedFile.isUnedited(older.replacingOccurrences(of: "sha256:", with: "sha256:0")))
    }

    @Test func workflowIsDeterministicAndLeastPrivilege() throws {
        let root = URL(fileURLWithPath: "/tmp/project")
        var config = RelctlConfig.defaults(root: root)
        config.targets = [TargetSettings(triple: "x86_64-unknown-linux-gnu")]
        let text = ReleaseWorkflow.render(config: config)
        #expect(text == ReleaseWorkflow.render(config: config))
        #expect(text.contains("permissions:\n  contents: read #"))
        #expect(text.components(separatedBy: "contents: write").count == 2)
        #expect(text.contains("matrix: ${{ fromJSON(needs.plan.outputs.matrix) }}"))
        // Matrix values never appear inside a script: every `run:` line is free of `${{`.
        var inRun = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.contains("run: |") { inRun = true; continue }
            if inRun, !line.hasPrefix("          ") { inRun = false }
            if inRun || line.contains("run: ") {
                #expect(!line.contains("${{"), "template expansion in a script: \(line)")
            }
        }
    }

    @Test func buildInputsComeFromTheManifestAndHead() async throws {
        let repo = try GitRepository()
        try MatrixFixtures.project(in: repo.directory, targets: ["x86_64-unknown-linux-gnu"])
        let head = try repo.commit("initial")
        let context = Context(workingDirectory: repo.url, environment: [:])
        let config = try ConfigLoader.load(path: nil, context: context)
        let identity = try await ReleaseIdentity.resolve(tag: nil, config: config, context: context, .build)
        #expect(
            identity.buildInputs
                == BuildInputs(tag: "v1.2.3", version: "1.2.3", commit: head, sourceDateEpoch: "1767323045"))
        await #expect(throws: VersionError.self) {
            try await ReleaseIdentity.resolve(tag: "1.2.3", config: config, context: context, .build)
        }
    }
}

@Suite("Release workflow YAML", .timeLimit(.minutes(30)), .removesTemporaries)
struct ReleaseWorkflowYAMLTests {
    /// Reads the generated YAML back with PyYAML (python3) and returns the `Install relctl` script of the plan job.
    func installScript(setup: [String]) throws -> String {
        var config = RelctlConfig.defaults(root: URL(fileURLWithPath: "/tmp/project"))
        config.targets = [TargetSettings(triple: "x86_64-unknown-linux-gnu")]
        config.ci.setup = setup
        return try withTemporaryDirectory { dir in
            try dir.write("w.yml", ReleaseWorkflow.render(config: config))
            let result = try sh(
                "python3 -c 'import yaml,sys; w=yaml.safe_load(open(\"w.yml\")); sys.stdout.write([s for s in w[\"jobs\"][\"plan\"][\"steps\"] if s[\"name\"]==\"Install relctl\"][0][\"run\"])'",
                in: dir.url)
            #expect(result.status == 0, "\(result)")
            return result.stdout
        }
    }

    @Test func setupLinesSurviveYAMLExactly() throws {
        #expect(
            try installScript(setup: ["  indented first", "second: with colon", "# comment"])
                == "  indented first\nsecond: with colon\n# comment\n")
        #expect(try installScript(setup: ["echo 'single' \"double\" #x"]) == "echo 'single' \"double\" #x")
        #expect(try installScript(setup: ["-dash first"]) == "-dash first")
    }
}

@Suite("[[ci.setup]] action references", .timeLimit(.minutes(30)), .removesTemporaries)
struct ActionReferenceTests {
    static let sha = "0b1efabc08b657293548b77fb76cc02d26091c7e"

    func text(_ uses: String) -> String? { try? ActionReference.parse(uses).get().text }

    @Test func pinnedReferencesAreAccepted() {
        #expect(text("actions/setup-node@v6") == "actions/setup-node@v6")
        #expect(text("actions/setup-node@v6.1.0") == "actions/setup-node@v6.1.0")
        #expect(text("github/codeql-action/init@v3") == "github/codeql-action/init@v3")
        #expect(text("dtolnay/rust-toolchain@\(Self.sha)") == "dtolnay/rust-toolchain@\(Self.sha)")
        #expect(text("Owner/Repo@\(Self.sha.uppercased())") != nil)
        #expect(text("./.github/actions/x") == "$/.github/actions/x")
        #expect(text("$/.github/actions/x") == "$/.github/actions/x")
        let digest = String(repeating: "ab", count: 32)
        #expect(text("docker://alpine@sha256:\(digest)") == "docker://alpine@sha256:\(digest)")
    }

    @Test func movableOrMalformedReferencesAreRefused() {
        for uses in [
            "dtolnay/rust-toolchain@stable", "dtolnay/rust-toolchain@v1", "owner/repo@0b1efab", "owner/repo",
            "actions/setup-node@main", "actions/setup-node", "actions/setup-node@", "./", "./a/../b", "./a@v1",
            "docker://alpine:3", "docker://alpine@sha256:abc", "repo@v1", "owner/repo@v1 extra", "../x", "",
            "owner/../x@\(Self.sha)",
        ] {
            #expect(text(uses) == nil, "\(uses)")
        }
    }

    @Test func secretNamesFollowGitHubsRules() {
        #expect(CISetupStep.secretNameProblem("CARGO_REGISTRY_TOKEN") == nil)
        #expect(CISetupStep.secretNameProblem("_x1") == nil)
        for bad in ["GITHUB_TOKEN", "github_pat", "1ABC", "A-B", "A B", "", "ÄB"] {
            #expect(CISetupStep.secretNameProblem(bad) != nil, "\(bad)")
        }
    }
}
