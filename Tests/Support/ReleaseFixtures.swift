import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A tiny releasable project: a git repository on `main` with a bare `origin`, a VERSION file,
/// and a shell "build" that writes stand-in binaries for two Linux targets.
public struct ReleaseFixture: Sendable {
    public let repository: GitRepository
    public let remote: TemporaryDirectory
    public var url: URL { repository.url }
    public var name: String

    /// The default build: one `hello` script per target in `out/<target>/`.
    public static let standInBuild =
        #"mkdir -p out/{target} && printf '#!/bin/sh\necho hello {version} {target}\n' > out/{target}/hello && chmod +x out/{target}/hello"#

    /// Creates the project at `version`, commits it, and pushes `main` to the bare remote.
    /// `buildCommand` replaces the stand-in build; `release` is extra text for `[release]`.
    public init(
        name: String = "demo", version: String = "1.0.0", buildCommand: String = ReleaseFixture.standInBuild,
        release: String = ""
    ) throws {
        self.name = name
        repository = try GitRepository()
        remote = try repository.addBareRemote()
        let config = """
            [project]
            name = "\(name)"

            [[version]]
            path = "VERSION"

            [build]
            command = '''\(buildCommand)'''
            binaries = ["hello"]
            binary-dir = "out/{target}"

            [[target]]
            triple = "x86_64-unknown-linux-gnu"

            [[target]]
            triple = "aarch64-unknown-linux-gnu"

            [archive]
            files = ["README.md"]

            [release]
            \(release)

            """
        try repository.commit(
            "chore: start",
            files: [
                "relctl.toml": config, "VERSION": version + "\n", "README.md": "# \(name)\n",
                ".gitignore": "out/\ndist/\n",
            ])
        try repository.commit("feat: say hello", files: ["src/hello.txt": "hello\n"])
        try repository.commit("fix: say it louder", files: ["src/hello.txt": "HELLO\n"])
        try repository.git("push", "-q", "origin", "main")
    }

    /// Runs git in the bare remote.
    @discardableResult
    public func remoteGit(_ arguments: String...) throws -> RunResult {
        try run("git", ["-C", remote.path] + arguments)
    }

    public func remoteTags() throws -> [String] {
        try remoteGit("tag", "--list").stdout.split(separator: "\n").map(String.init)
    }

    public func localTags() throws -> [String] {
        try repository.git("tag", "--list").split(separator: "\n").map(String.init)
    }

    /// `git status --porcelain --ignored` of the project (empty when nothing at all was written).
    public func statusIncludingIgnored() throws -> String {
        try repository.git("status", "--porcelain", "--ignored")
    }

    /// Installs a `pre-receive` hook on the bare remote (e.g. to reject or stall pushes).
    public func installRemoteHook(_ script: String) throws {
        try remote.write("hooks/pre-receive", "#!/bin/sh\n" + script + "\n", executable: true)
    }

    public func remove() {
        repository.directory.remove()
        remote.remove()
    }
}

/// Several fixture repositories and a `relctl-workspace.toml` naming them.
public struct TrainFixture: Sendable {
    public let workspace: TemporaryDirectory
    public let repositories: [String: ReleaseFixture]

    /// `repos` are (name, after, build command) in file order; `release` adds `[release]` text per name.
    public init(_ repos: [(name: String, after: [String], build: String)], release: [String: String] = [:]) throws {
        workspace = try TemporaryDirectory(prefix: "relctl-workspace")
        var fixtures: [String: ReleaseFixture] = [:]
        var text = ""
        for repo in repos {
            let fixture = try ReleaseFixture(
                name: repo.name, buildCommand: repo.build, release: release[repo.name] ?? "")
            fixtures[repo.name] = fixture
            let after = repo.after.map { "\"\($0)\"" }.joined(separator: ", ")
            // Relative to the workspace file, as users write it; both live in the temp folder.
            text +=
                "[[repo]]\nname = \"\(repo.name)\"\npath = \"../\(fixture.url.lastPathComponent)\"\nafter = [\(after)]\n\n"
        }
        try workspace.write("relctl-workspace.toml", text)
        repositories = fixtures
    }

    public var file: String { workspace.url.appendingPathComponent("relctl-workspace.toml").path }

    public func remove() {
        workspace.remove()
        for fixture in repositories.values { fixture.remove() }
    }
}
