import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A project whose generated release workflow is run by `WorkflowRunner`: a git repository with a
/// bare `origin`, a relctl.toml whose `[ci] setup` puts the relctl under test on PATH (copied from
/// `$RELCTL_UNDER_TEST`, which the runner passes to every step), and the generated workflow committed.
public struct WorkflowFixture: Sendable {
    public let repository: GitRepository
    public let remote: TemporaryDirectory
    public var url: URL { repository.url }
    public var workflow: URL { url.appendingPathComponent(".github/workflows/release.yml") }

    /// The `[ci] setup` line that installs the relctl under test on a runner.
    public static let setup =
        #"mkdir -p "$RUNNER_TEMP/bin" && cp "$RELCTL_UNDER_TEST" "$RUNNER_TEMP/bin/relctl" && echo "$RUNNER_TEMP/bin" >> "$GITHUB_PATH""#

    /// Stand-in binaries on any runner: `hello` (`hello.exe` for Windows targets) per target.
    public static let standInBuild =
        #"mkdir -p out/{target} && printf '#!/bin/sh\necho hello {version} {target}\n' > out/{target}/hello && chmod +x out/{target}/hello && case {target} in *windows*) mv out/{target}/hello out/{target}/hello.exe ;; esac"#

    /// Four targets, every one built on a Linux runner (the Windows and macOS ones cross-built,
    /// as stand-ins): `targets` is TOML appended as it is.
    public static let multiTargets = """
        [[target]]
        triple = "x86_64-unknown-linux-gnu"

        [[target]]
        triple = "aarch64-unknown-linux-musl"
        runner = "ubuntu-24.04"

        [[target]]
        triple = "x86_64-pc-windows-msvc"
        runner = "ubuntu-latest"

        [[target]]
        triple = "aarch64-apple-darwin"
        runner = "ubuntu-22.04"

        """

    /// A project named `name` at `version` with `targets` and `tagFormat`; `ci` is the body of its
    /// `[ci]` table (default: the setup line above).
    public init(
        name: String = "multi", version: String = "1.0.0", tagFormat: String = "v{version}",
        targets: String = WorkflowFixture.multiTargets, ci: String = "setup = ['\(WorkflowFixture.setup)']"
    ) throws {
        repository = try GitRepository()
        remote = try repository.addBareRemote()
        let config = """
            [project]
            name = "\(name)"
            tag-format = "\(tagFormat)"

            [[version]]
            path = "VERSION"

            [build]
            command = '''\(Self.standInBuild)'''
            binaries = ["hello"]
            binary-dir = "out/{target}"

            \(targets)
            [archive]
            name = "{project}-{tag}-{target}"
            files = ["README.md"]

            [ci]
            \(ci)

            """
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": config, "VERSION": version + "\n", "README.md": "# \(name)\n",
                ".gitignore": "out/\ndist/\n",
            ])
        try repository.commit("feat: say hello", files: ["src/hello.txt": "hello\n"])
        try commitWorkflow()
    }

    /// An existing project folder (e.g. one of Examples/) copied into a fresh repository, with
    /// `[ci] setup` appended to its relctl.toml.
    /// `editing` changes the copy's relctl.toml first (a registry of the test's own, say).
    public init(copying folder: URL, editing edit: (String) -> String = { $0 }) throws {
        repository = try GitRepository()
        let copy = try run("cp", ["-R", folder.path + "/.", repository.url.path])
        guard copy.status == 0 else { throw TestFailure("cp failed: \(copy)") }
        remote = try repository.addBareRemote()
        let config = edit(try repository.directory.read("relctl.toml"))
        try repository.directory.write("relctl.toml", config + "\n[ci]\nsetup = ['\(Self.setup)']\n")
        try repository.commit("chore: import the example")
        try commitWorkflow()
    }

    private func commitWorkflow() throws {
        let generate = try relctl(["ci", "generate"], in: url)
        guard generate.status == 0 else { throw TestFailure("relctl ci generate failed: \(generate)") }
        try repository.commit("ci: release workflow")
        try repository.git("push", "-q", "origin", "main")
    }

    /// Tags HEAD (annotated, as `relctl release` does) and pushes the tag, which starts the workflow.
    public func pushTag(_ tag: String) throws {
        try repository.git("tag", "-a", tag, "-m", tag)
        try repository.git("push", "-q", "origin", tag)
    }

    /// Runs the generated workflow (or `workflow`) for `tag`, publishing to `standIn`.
    public func runWorkflow(
        tag: String, standIn: GitHubStandIn, repository: String, workflow: URL? = nil, runAsLinux: [String] = [],
        secrets: [String: String] = [:]
    ) throws -> WorkflowRunner.Outcome {
        let work = try TemporaryDirectory(prefix: "relctl-runner")
        defer { work.remove() }
        return try WorkflowRunner.run(
            workflow: workflow ?? self.workflow, remote: remote.url, tag: tag, work: work.url, repository: repository,
            token: GitHubStandIn.token,
            environment: ["GITHUB_API_URL": standIn.apiURL, "RELCTL_UNDER_TEST": relctlBinary.path],
            runAsLinux: runAsLinux, secrets: secrets)
    }

    public func remove() {
        repository.directory.remove()
        remote.remove()
    }
}
