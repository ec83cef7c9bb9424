import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Every relctl.toml key whose value reaches the generated workflow, with a line break that
/// would add a step and with a `${{ }}` expression (issue 26, item 6). Judged by a YAML parser
/// (the steps are exactly the baseline's) and by zizmor (no template injection).
@Suite("Workflow injection", .timeLimit(.minutes(45)), .removesTemporaries)
struct WorkflowInjectionCLITests {
    static let workflow = ".github/workflows/release.yml"
    static let newline = #"x\n      - run: echo ${{ github.event.head_commit.message }}\n        name: injected"#
    static let expression = #"x-${{ github.event.head_commit.message }}"#

    /// A project with an image, so the binary folder and names reach the workflow's upload step.
    static func config(
        name: String = "demo", tagFormat: String = "v{version}", binary: String = "demo",
        binaryDirectory: String = "target/{target}/release"
    ) -> String {
        """
        [project]
        name = "\(name)"
        tag-format = "\(tagFormat)"

        [[version]]
        path = "VERSION"

        [build]
        binaries = ["\(binary)"]
        binary-dir = "\(binaryDirectory)"

        [[target]]
        triple = "x86_64-unknown-linux-musl"

        [[image]]
        repository = "ghcr.io/acme/demo"
        """
    }

    /// Each job's step names, read back by PyYAML.
    static func steps(in dir: TemporaryDirectory) throws -> String {
        let result = try run(
            "python3",
            [
                "-c",
                "import json,sys,yaml; w=yaml.safe_load(open(sys.argv[1])); json.dump({j: [s.get('name') for s in v['steps']] for j, v in w['jobs'].items()}, sys.stdout, sort_keys=True)",
                Self.workflow,
            ], in: dir.url)
        #expect(result.status == 0, "\(result)")
        return result.stdout
    }

    static let cases: [(key: String, config: String)] = [
        ("project.name", config(name: newline)), ("project.name", config(name: expression)),
        (
            "project.name",
            config(binary: "demo", binaryDirectory: "out/{project}/{target}").replacingOccurrences(
                of: "name = \"demo\"", with: "name = \"\(expression)\"")
        ),
        ("project.tag-format", config(tagFormat: "v{version}" + newline)),
        ("project.tag-format", config(tagFormat: expression + "{version}")),
        ("build.binaries", config(binary: newline)), ("build.binaries", config(binary: expression)),
        ("build.binary-dir", config(binaryDirectory: "target/{target}/release" + newline)),
        ("build.binary-dir", config(binaryDirectory: expression + "/{target}")),
    ]

    @Test("a hostile value is refused by check and by ci generate, at its key; nothing is written")
    func hostileValuesAreRefused() throws {
        try withTemporaryDirectory { dir in
            try dir.write("VERSION", "1.0.0\n")
            try dir.write("relctl.toml", Self.config())
            #expect(try relctl(["ci", "generate"], in: dir.url).status == 0)
            let baseline = try Self.steps(in: dir)
            let clean = try CIGenerateCLITests.tool(
                "zizmor", ["--offline", "--no-progress", Self.workflow], in: dir.url)
            #expect(clean.status == 0, "\(clean)")
            let text = try dir.read(Self.workflow)
            for (key, config) in Self.cases {
                try dir.write("relctl.toml", config)
                let check = try relctl(["check"], in: dir.url)
                #expect(check.status == 2, "check accepted a hostile \(key):\n\(check)")
                let generate = try relctl(["ci", "generate", "--force"], in: dir.url)
                #expect(generate.status == 2, "ci generate accepted a hostile \(key):\n\(generate)")
                #expect(generate.stderr.contains("relctl.toml:"), "\(generate)")
                // The file on disk is still the clean one: YAML and zizmor agree nothing was added.
                #expect(try dir.read(Self.workflow) == text, "\(key)")
                #expect(try Self.steps(in: dir) == baseline)
            }
        }
    }
}
