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

/// `relctl init` then `relctl check` on repositories shaped like the real projects of issue 12:
/// the starter file reads the repository as it is, and passes `check` the first time.
@Suite(.timeLimit(.minutes(60)), .removesTemporaries) struct InitShapesCLITests {
    /// Runs init then check, requiring both to pass; returns the written relctl.toml.
    func initThenCheck(_ repo: GitRepository) throws -> String {
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let check = try relctl(["check"], in: repo.url)
        let written = try repo.directory.read("relctl.toml")
        #expect(check.status == 0, "init then check: \(check)\n\(written)")
        return written
    }

    @Test func flaskBareTagsAndADevVersion() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"Flask\"\nversion = \"3.2.0.dev\"\n")
        try repo.commit("chore: start")
        for tag in ["3.0.0", "3.1.0", "3.1.1", "2.3.3"] { try repo.git("tag", tag) }
        try repo.commit("fix: x")
        let config = try initThenCheck(repo)
        #expect(config.contains("tag-format = \"{version}\""), "\(config)")
        #expect(config.contains("path = \"pyproject.toml\""))
        #expect(!config.contains("\n[[target]]") && !config.contains("\n[build]"), "a library is tag-only")
        // notes now sees the bare tags, and bump never lowers the .dev version.
        let notes = try relctl(["notes", "--json"], in: repo.url)
        #expect(notes.stdout.contains("\"previous\" : \"3.1.1\""), "\(notes)")
        let bump = try relctl(["bump", "--write"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "3.2.0\n", "\(bump)")
        #expect(try repo.directory.read("pyproject.toml").contains("version = \"3.2.0\""))
    }

    @Test func blackHatchVcsHasNoVersionEntry() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            """
            [project]
            name = "black"
            dynamic = ["version"]

            [tool.hatch.version]
            source = "vcs"

            """)
        try repo.commit("chore: start")
        try repo.git("tag", "26.5.0")
        let config = try initThenCheck(repo)
        #expect(!config.contains("[[version]]") && config.contains("dynamic"), "\(config)")
        #expect(config.contains("tag-format = \"{version}\""))
    }

    @Test func helixVirtualWorkspaceWithBinaryHx() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml", "[workspace]\nmembers = [\"helix-core\", \"helix-term\"]\nresolver = \"2\"\n")
        try repo.directory.write("helix-core/Cargo.toml", "[package]\nname = \"helix-core\"\nversion = \"25.7.1\"\n")
        try repo.directory.write("helix-core/src/lib.rs", "\n")
        try repo.directory.write(
            "helix-term/Cargo.toml",
            "[package]\nname = \"helix-term\"\nversion = \"25.7.1\"\n\n[[bin]]\nname = \"hx\"\npath = \"src/main.rs\"\n"
        )
        try repo.directory.write("helix-term/src/main.rs", "fn main() {}\n")
        try repo.commit("chore: start")
        let config = try initThenCheck(repo)
        #expect(config.contains("binaries = [\"hx\"]"), "\(config)")
        #expect(
            config.contains("path = \"helix-core/Cargo.toml\"") && config.contains("path = \"helix-term/Cargo.toml\""))
        #expect(!config.contains("path = \"Cargo.toml\""), "a virtual workspace root holds no version")
        // No Cargo.lock: `--locked` would fail the build (issue 57).
        #expect(config.contains("command = \"cargo build --release --target {target}\""), "\(config)")
    }

    @Test func velostreamAutobins() throws {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[package]\nname = \"velostream\"\nversion = \"0.1.0\"\n")
        try repo.directory.write("src/main.rs", "fn main() {}\n")
        try repo.directory.write("src/bin/velo-sql.rs", "fn main() {}\n")
        try repo.directory.write("src/bin/velo-cli/main.rs", "fn main() {}\n")
        try repo.directory.write("README.md", "# velostream\n")
        try repo.commit("chore: start")
        try repo.git("tag", "v0.0.1-test")
        let config = try initThenCheck(repo)
        #expect(config.contains("binaries = [\"velostream\", \"velo-cli\", \"velo-sql\"]"), "\(config)")
        #expect(config.contains("tag-format = \"v{version}\""))
        #expect(config.contains("files = [\"README.md\"]"))
    }

    @Test func swiftPackageExecutableProductAndNpmLibrary() throws {
        let swift = try GitRepository()
        try swift.directory.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(name: "tool", products: [.executable(name: "mytool", targets: ["Tool"]), .library(name: "Lib", targets: ["Lib"])])

            """)
        try swift.commit("chore: start")
        let config = try initThenCheck(swift)
        #expect(
            config.contains("binaries = [\"mytool\"]")
                && config.contains("command = \"swift build -c release --product mytool\""), "\(config)")
        #expect(!config.contains("build.sh"))

        let axios = try GitRepository()
        try axios.directory.write(
            "package.json", "{\"name\": \"axios\", \"version\": \"1.7.2\", \"main\": \"index.js\"}\n")
        try axios.commit("chore: start")
        let npm = try initThenCheck(axios)
        #expect(npm.contains("path = \"package.json\"") && !npm.contains("\n[[target]]"), "\(npm)")
    }

    @Test func typstAndGitCliffWorkspacesWithTheirLocks() throws {
        let typst = try GitRepository()
        try typst.directory.write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\"]\nresolver = \"2\"\n\n[workspace.package]\nversion = \"0.15.1\"\nedition = \"2021\"\n\n[workspace.dependencies]\ntypst = { path = \"crates/typst\", version = \"0.15.1\" }\n"
        )
        try typst.directory.write(
            "crates/typst/Cargo.toml",
            "[package]\nname = \"typst\"\nversion.workspace = true\nedition.workspace = true\n")
        try typst.directory.write("crates/typst/src/lib.rs", "\n")
        try typst.directory.write(
            "crates/typst-cli/Cargo.toml",
            "[package]\nname = \"typst-cli\"\nversion.workspace = true\nedition.workspace = true\n\n[[bin]]\nname = \"typst\"\npath = \"src/main.rs\"\n\n[dependencies]\ntypst.workspace = true\n"
        )
        try typst.directory.write("crates/typst-cli/src/main.rs", "fn main() {}\n")
        #expect(try sh("cargo generate-lockfile --offline", in: typst.url).status == 0)
        try typst.commit("chore: start")
        try typst.git("tag", "v0.15.1")
        let config = try initThenCheck(typst)
        #expect(config.contains("path = \"Cargo.toml\"") && config.contains("binaries = [\"typst\"]"), "\(config)")
        let validated = try relctl(["validate-tag", "v0.15.1"], in: typst.url)
        #expect(validated.status == 0 && validated.stderr.contains("and 3 lock/pin entries"), "\(validated)")

        let commitizen = try GitRepository()
        try commitizen.directory.write(
            "pyproject.toml",
            "[project]\nname = \"commitizen\"\nversion = \"4.1.0\"\nrequires-python = \">=3.9\"\ndependencies = []\n")
        #expect(try sh("uv lock --offline -q", in: commitizen.url).status == 0)
        try commitizen.commit("chore: start")
        try commitizen.git("tag", "v4.1.0")
        let python = try initThenCheck(commitizen)
        #expect(python.contains("path = \"pyproject.toml\"") && !python.contains("\n[[target]]"), "\(python)")
    }
}
