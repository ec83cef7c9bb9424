import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// The seed's flovyn-shaped workspace (`multi-repo-release-process.md`): a Rust core with a
/// Cargo.toml and one target, two language SDKs whose CI pins the core's release
/// (`FFI_VERSION: "…"` in `.github/workflows/ci.yml`) and which are tag-only, and a tag-only
/// server released last. Each has a bare `origin`.
public struct SeedTrainFixture: Sendable {
    public let workspace: TemporaryDirectory
    public let repositories: [String: ReleaseFixtureRepository]
    public static let names = ["sdk-rust", "sdk-python", "sdk-kotlin", "flovyn-server"]
    public static let sdks = ["sdk-python", "sdk-kotlin"]

    /// `before` adds a `[release] before` hook per repository name.
    public init(version: String = "0.2.0", before: [String: String] = [:]) throws {
        workspace = try TemporaryDirectory(prefix: "relctl-flovyn")
        var repositories: [String: ReleaseFixtureRepository] = [:]
        for name in Self.names {
            let repository = try GitRepository(directory: TemporaryDirectory(prefix: "relctl-\(name)"))
            let remote = try repository.addBareRemote()
            let hook = before[name].map { "before = ['''\($0)''']" } ?? ""
            var files: [String: String] = ["README.md": "# \(name)\n", ".gitignore": "out/\ndist/\n"]
            switch name {
            case "sdk-rust":
                files["Cargo.toml"] = "[package]\nname = \"flovyn-sdk\"\nversion = \"\(version)\"\nedition = \"2021\"\n"
                files["relctl.toml"] = """
                    [project]
                    name = "flovyn-ffi"

                    [[version]]
                    path = "Cargo.toml"

                    [build]
                    command = '''\(ReleaseFixture.standInBuild)'''
                    binaries = ["hello"]
                    binary-dir = "out/{target}"

                    [[target]]
                    triple = "x86_64-unknown-linux-gnu"

                    [archive]
                    files = ["README.md"]

                    [release]
                    \(hook)

                    """
            case "sdk-python", "sdk-kotlin":
                files["VERSION"] = version + "\n"
                files[".github/workflows/ci.yml"] = """
                    name: CI
                    on: [push]
                    env:
                      FFI_VERSION: "v0.1.0"
                    jobs:
                      test:
                        runs-on: ubuntu-latest
                        steps:
                          - uses: actions/checkout@v4
                          - run: ./scripts/download-ffi.sh "$FFI_VERSION"

                    """
                files["relctl.toml"] =
                    "[project]\nname = \"\(name)\"\n\n[[version]]\npath = \"VERSION\"\n\n[release]\n\(hook)\n"
            default:
                files["VERSION"] = version + "\n"
                files["relctl.toml"] =
                    "[project]\nname = \"\(name)\"\n\n[[version]]\npath = \"VERSION\"\n\n[release]\n\(hook)\n"
            }
            try repository.commit("chore: start", files: files)
            try repository.commit("feat: the \(name) part", files: ["src/lib.txt": "\(name)\n"])
            try repository.git("push", "-q", "origin", "main")
            repositories[name] = ReleaseFixtureRepository(name: name, repository: repository, remote: remote)
        }
        self.repositories = repositories
        let pin = """
            [[repo.pin]]
            path = ".github/workflows/ci.yml"
            pattern = 'FFI_VERSION: "(?<version>[^"]+)"'
            value = "{tag}"
            """
        try workspace.write(
            "relctl-workspace.toml",
            """
            [[repo]]
            name = "sdk-rust"
            path = "\(repositories["sdk-rust"]!.url.path)"

            [[repo]]
            name = "sdk-python"
            path = "\(repositories["sdk-python"]!.url.path)"
            after = ["sdk-rust"]
            \(pin)

            [[repo]]
            name = "sdk-kotlin"
            path = "\(repositories["sdk-kotlin"]!.url.path)"
            after = ["sdk-rust"]
            \(pin)

            [[repo]]
            name = "flovyn-server"
            path = "\(repositories["flovyn-server"]!.url.path)"
            after = ["sdk-python", "sdk-kotlin"]

            """)
    }

    public var file: String { workspace.url.appendingPathComponent("relctl-workspace.toml").path }

    public subscript(name: String) -> ReleaseFixtureRepository { repositories[name]! }

    public func remove() {
        workspace.remove()
        for repository in repositories.values { repository.remove() }
    }
}

/// One repository of a fixture workspace and its bare remote.
public struct ReleaseFixtureRepository: Sendable {
    public let name: String
    public let repository: GitRepository
    public let remote: TemporaryDirectory
    public var url: URL { repository.url }

    /// Runs git in the bare remote and returns trimmed stdout ("" on failure).
    public func remoteGit(_ arguments: String...) throws -> String {
        try run("git", ["-C", remote.path] + arguments).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func remoteTags() throws -> [String] {
        try remoteGit("tag", "--list").split(separator: "\n").map(String.init)
    }

    public func localTags() throws -> [String] {
        try repository.git("tag", "--list").split(separator: "\n").map(String.init)
    }

    /// Files in the repository's dist/ (none when it does not exist), hidden ones included.
    public func distFiles() throws -> [String] {
        (try folderNames(url.appendingPathComponent("dist").path)).sorted()
    }

    public func remove() {
        repository.directory.remove()
        remote.remove()
    }
}
