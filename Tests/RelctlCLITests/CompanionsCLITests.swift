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

/// `bump --write`, `bump --set` and `validate-tag` on projects shaped like the real ones of issue
/// 12, with the ecosystems' own tools (cargo, uv, npm) run after the bump: the build and lock
/// checks must still pass.
@Suite(.serialized, .timeLimit(.minutes(45)), .removesTemporaries) struct CompanionsCLITests {
    /// Runs a tool in the project and requires success, showing its output otherwise.
    func tool(_ line: String, in repo: GitRepository, target: TemporaryDirectory? = nil) throws {
        var env: [String: String] = [:]
        if let target { env["CARGO_TARGET_DIR"] = target.path }
        let result = try sh(line, in: repo.url, environment: env)
        #expect(result.status == 0, "\(line): \(result)")
    }

    func line(of needle: String, in text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }.map { $0 + 1 }
    }

    @Test func velostreamSingleCrateKeepsCargoLockBuildable() throws {
        let repo = try GitRepository()
        let target = try TemporaryDirectory()
        try repo.directory.write(
            "Cargo.toml", "[package]\nname = \"velostream\"\nversion = \"0.3.0\"\nedition = \"2021\"\n")
        try repo.directory.write("src/main.rs", "fn main() {}\n")
        try repo.directory.write("src/bin/velo-cli.rs", "fn main() {}\n")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"velostream\"\n\n[[version]]\npath = \"Cargo.toml\"\n")
        try tool("cargo generate-lockfile --offline", in: repo)
        try repo.commit("chore: start")
        try repo.git("tag", "v0.3.0")
        try repo.commit("feat: streams", files: ["src/lib.rs": "\n"])
        // A stale lock is a mismatch naming Cargo.lock and its line.
        let lock = try repo.directory.read("Cargo.lock")
        try repo.directory.write(
            "Cargo.lock", lock.replacingOccurrences(of: "version = \"0.3.0\"", with: "version = \"0.2.9\""))
        let stale = try relctl(["validate-tag", "v0.3.0"], in: repo.url)
        #expect(stale.status == 1, "\(stale)")
        let lockLine = try #require(line(of: "0.2.9", in: try repo.directory.read("Cargo.lock")))
        #expect(
            stale.stderr.contains(
                "Cargo.lock:\(lockLine): Cargo.lock entry of `velostream` holds 0.2.9, but Cargo.toml needs 0.3.0"),
            "\(stale)")
        let check = try relctl(["check"], in: repo.url)
        // The same finding, the same exit code as validate-tag's (issue 46).
        #expect(check.status == 1 && check.stderr.contains("Cargo.lock:\(lockLine)"), "\(check)")
        try repo.directory.write("Cargo.lock", "\(lock)")

        let bump = try relctl(["bump", "--write"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "0.4.0\n", "\(bump)")
        #expect(
            try repo.directory.read("Cargo.lock")
                == lock.replacingOccurrences(of: "version = \"0.3.0\"", with: "version = \"0.4.0\""))
        try tool("cargo build --locked --offline -q", in: repo, target: target)
        let validated = try relctl(["validate-tag", "v0.4.0"], in: repo.url)
        #expect(
            validated.status == 0 && validated.stderr.contains("matches 1 manifest and 1 lock/pin entry"),
            "\(validated)")
        // --set never lowers, and refuses what is not a version; nothing is written either way.
        let before = try repo.directory.read("Cargo.lock")
        let lower = try relctl(["bump", "--set", "0.3.5", "--write"], in: repo.url)
        #expect(lower.status == 1 && lower.stderr.contains("Cargo.toml:3: holds 0.4.0, above 0.3.5"), "\(lower)")
        #expect(try relctl(["bump", "--set", "banana"], in: repo.url).status == 2)
        #expect(try repo.directory.read("Cargo.lock") == before)
    }

    @Test func typstWorkspaceDependenciesFollowTheSharedVersion() throws {
        let repo = try GitRepository()
        let target = try TemporaryDirectory()
        try repo.directory.write(
            "Cargo.toml",
            """
            [workspace]
            members = ["crates/*"]
            resolver = "2"

            [workspace.package]
            version = "0.15.1"
            edition = "2021"

            [workspace.dependencies]
            typst-syntax = { path = "crates/typst-syntax", version = "0.15.1" }
            typst-library = { path = "crates/typst-library", version = "=0.15.1" }
            typst-utils = { version = "^0.15", path = "crates/typst-utils" }
            typst-pdf = { path = "crates/typst-pdf", version = ">=0.1" }

            """)
        for crate in ["typst-syntax", "typst-library", "typst-utils", "typst-pdf"] {
            try repo.directory.write(
                "crates/\(crate)/Cargo.toml",
                "[package]\nname = \"\(crate)\"\nversion.workspace = true\nedition.workspace = true\n")
            try repo.directory.write("crates/\(crate)/src/lib.rs", "\n")
        }
        try repo.directory.write(
            "crates/typst-cli/Cargo.toml",
            """
            [package]
            name = "typst-cli"
            version = { workspace = true }
            edition.workspace = true

            [[bin]]
            name = "typst"
            path = "src/main.rs"

            [dependencies]
            typst-syntax = { workspace = true }
            typst-library.workspace = true
            typst-utils.workspace = true
            typst-pdf.workspace = true

            [dependencies.typst-macros]
            path = "../typst-macros"
            version = "0.15.1"

            """)
        try repo.directory.write("crates/typst-cli/src/main.rs", "fn main() {}\n")
        try repo.directory.write(
            "crates/typst-macros/Cargo.toml",
            "[package]\nname = \"typst-macros\"\nversion = \"0.15.1\"\nedition = \"2021\"\n")
        try repo.directory.write("crates/typst-macros/src/lib.rs", "\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"typst\"\n\n[[version]]\npath = \"Cargo.toml\"\n\n[[version]]\npath = \"crates/typst-macros/Cargo.toml\"\n"
        )
        try tool("cargo generate-lockfile --offline", in: repo)
        try repo.commit("chore: start")
        #expect(try relctl(["validate-tag", "v0.15.1"], in: repo.url).status == 0)

        let bump = try relctl(["bump", "--set", "0.16.0", "--write"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "0.16.0\n", "\(bump)")
        let root = try repo.directory.read("Cargo.toml")
        #expect(root.contains("version = \"0.16.0\"\nedition"))
        #expect(root.contains("typst-syntax = { path = \"crates/typst-syntax\", version = \"0.16.0\" }"))
        #expect(
            root.contains("typst-library = { path = \"crates/typst-library\", version = \"=0.16.0\" }"),
            "the operator is kept")
        #expect(
            root.contains("typst-utils = { version = \"^0.16\", path = \"crates/typst-utils\" }"),
            "a partial requirement keeps its precision")
        #expect(
            root.contains("typst-pdf = { path = \"crates/typst-pdf\", version = \">=0.1\" }"), "ranges are left alone")
        #expect(
            try repo.directory.read("crates/typst-cli/Cargo.toml").contains(
                "path = \"../typst-macros\"\nversion = \"0.16.0\""))
        let lock = try repo.directory.read("Cargo.lock")
        #expect(!lock.contains("0.15.1") && lock.components(separatedBy: "version = \"0.16.0\"").count == 7, "\(lock)")
        try tool("cargo build --locked --offline -q", in: repo, target: target)
        let validate = try relctl(["validate-tag", "v0.16.0"], in: repo.url)
        #expect(validate.status == 0, "\(validate)")
        // A patch bump stays inside `^0.16`: that requirement is not rewritten.
        #expect(try relctl(["bump", "--set", "0.16.1", "--write"], in: repo.url).status == 0)
        #expect(try repo.directory.read("Cargo.toml").contains("version = \"^0.16\""))
        try tool("cargo build --locked --offline -q", in: repo, target: target)
    }

    @Test func gitCliffVirtualWorkspaceAndNpmPins() throws {
        let repo = try GitRepository()
        let target = try TemporaryDirectory()
        try repo.directory.write(
            "Cargo.toml", "[workspace]\nmembers = [\"git-cliff-core\", \"git-cliff\"]\nresolver = \"2\"\n")
        try repo.directory.write(
            "git-cliff-core/Cargo.toml",
            "[package]\nname = \"git-cliff-core\"\nversion = \"2.6.1\"\nedition = \"2021\"\n")
        try repo.directory.write("git-cliff-core/src/lib.rs", "\n")
        try repo.directory.write(
            "git-cliff/Cargo.toml",
            """
            [package]
            name = "git-cliff"
            version = "2.6.1"
            edition = "2021"

            [dependencies]
            git-cliff-core = { version = "2.6.1", path = "../git-cliff-core" }

            """)
        try repo.directory.write("git-cliff/src/main.rs", "fn main() {}\n")
        let npm = """
            {
              "name": "git-cliff",
              "version": "2.6.1",
              "engines": { "version": "2.6.1" },
              "optionalDependencies": {
                "git-cliff-linux-x64": "2.6.1",
                "git-cliff-darwin-arm64": "2.6.1",
                "left-pad": "2.6.1"
              }
            }

            """
        try repo.directory.write("npm/git-cliff/package.json", "\(npm)")
        try repo.directory.write(
            "relctl.toml",
            """
            [project]
            name = "git-cliff"

            [[version]]
            path = "git-cliff/Cargo.toml"
            [[version]]
            path = "git-cliff-core/Cargo.toml"
            [[version]]
            path = "npm/git-cliff/package.json"

            """)
        try tool("cargo generate-lockfile --offline", in: repo)
        try repo.commit("chore: start")
        try repo.git("tag", "v2.6.1")
        try repo.commit("feat: more")
        let bump = try relctl(["bump", "--write", "--json"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        #expect(bump.stdout.contains("\"next\" : \"2.7.0\""), "\(bump)")
        #expect(
            try repo.directory.read("git-cliff/Cargo.toml").contains(
                "git-cliff-core = { version = \"2.7.0\", path = \"../git-cliff-core\" }"))
        let pins = try repo.directory.read("npm/git-cliff/package.json")
        #expect(
            pins
                == npm.replacingOccurrences(of: "\"version\": \"2.6.1\",", with: "\"version\": \"2.7.0\",")
                .replacingOccurrences(of: "-x64\": \"2.6.1\"", with: "-x64\": \"2.7.0\"").replacingOccurrences(
                    of: "-arm64\": \"2.6.1\"", with: "-arm64\": \"2.7.0\""),
            "own per-platform pins follow; engines and other packages keep their text:\n\(pins)")
        #expect(!(try repo.directory.read("Cargo.lock")).contains("2.6.1"))
        try tool("cargo build --locked --offline -q", in: repo, target: target)
        #expect(try relctl(["validate-tag", "v2.7.0"], in: repo.url).status == 0)
    }

    @Test func commitizenUvLockStaysCurrent() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "pyproject.toml",
            """
            [project]
            name = "Commitizen"
            version = "4.1.0"
            requires-python = ">=3.9"
            dependencies = []

            [build-system]
            requires = ["hatchling"]
            build-backend = "hatchling.build"

            """)
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"commitizen\"\n\n[[version]]\npath = \"pyproject.toml\"\n")
        try tool("uv lock --offline -q", in: repo)
        try repo.commit("chore: start")
        try repo.git("tag", "v4.1.0")
        try repo.commit("feat: bump rules")
        #expect(try relctl(["bump", "--write"], in: repo.url).stdout == "4.2.0\n")
        #expect(try repo.directory.read("uv.lock").contains("name = \"commitizen\"\nversion = \"4.2.0\""))
        try tool("uv lock --check --offline", in: repo)
        // A prerelease is written in uv's (PEP 440) spelling.
        let rc = try relctl(["bump", "--set", "4.3.0-rc.1", "--write"], in: repo.url)
        #expect(rc.status == 0, "\(rc)")
        #expect(try repo.directory.read("pyproject.toml").contains("version = \"4.3.0rc1\""))
        try tool("uv lock --check --offline", in: repo)
        #expect(try relctl(["validate-tag", "v4.3.0-rc.1"], in: repo.url).status == 0)
        // A SemVer -post.1 tag is refused against a Python manifest, saying why.
        let post = try relctl(["validate-tag", "v4.3.0-post.1"], in: repo.url)
        #expect(post.status == 1 && post.stderr.contains("post-release"), "\(post)")
    }

    @Test func axiosPackageLockRootEntries() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "package.json", "{\n  \"name\": \"axios\",\n  \"version\": \"1.7.2\",\n  \"description\": \"x\"\n}\n")
        try repo.directory.write("relctl.toml", "[project]\nname = \"axios\"\n\n[[version]]\npath = \"package.json\"\n")
        try tool("npm install --offline --package-lock-only --no-audit --no-fund -q", in: repo)
        try repo.commit("chore: start")
        let bump = try relctl(["bump", "--set", "v1.8.0", "--write"], in: repo.url)
        #expect(bump.status == 0, "\(bump)")
        let lock = try repo.directory.read("package-lock.json")
        #expect(!lock.contains("1.7.2") && lock.components(separatedBy: "\"version\": \"1.8.0\"").count == 3, "\(lock)")
        try tool("npm ci --offline --no-audit --no-fund -q", in: repo)
        #expect(try relctl(["validate-tag", "v1.8.0"], in: repo.url).status == 0)
        // lockfileVersion 1: only the top-level entry.
        try repo.directory.write(
            "package-lock.json",
            "{\n  \"name\": \"axios\",\n  \"version\": \"1.7.0\",\n  \"lockfileVersion\": 1,\n  \"requires\": true\n}\n"
        )
        let stale = try relctl(["validate-tag", "v1.8.0"], in: repo.url)
        #expect(
            stale.status == 1 && stale.stderr.contains("package-lock.json:3: package-lock.json version holds 1.7.0"),
            "\(stale)")
    }

    @Test func bumpRespectsTheManifestAndEveryExistingTag() throws {
        // black: HEAD is tagged 26.5.0; 26.5.1 exists on a release branch. The latest release is
        // the highest anywhere (PRODUCT "Round 4"): 26.5.1, whose branch HEAD does not contain.
        let repo = try GitRepository()
        try repo.directory.write("relctl.toml", "[project]\nname = \"black\"\ntag-format = \"{version}\"\n")
        try repo.commit("chore: start")
        try repo.git("tag", "26.5.0")
        try repo.git("checkout", "-q", "-b", "release")
        try repo.commit("fix: backport")
        try repo.git("tag", "26.5.1")
        try repo.git("checkout", "-q", "main")
        let black = try relctl(["bump"], in: repo.url)
        #expect(black.status == 0 && black.stdout == "26.5.2\n", "\(black)")
        #expect(
            black.stderr.contains("the latest release 26.5.1 is not an ancestor of HEAD"),
            "\(black)")

        // typst main: manifest 0.15.1 while the tags since 0.11 live on release branches.
        let typst = try GitRepository()
        try typst.directory.write("Cargo.toml", "[package]\nname = \"typst\"\nversion = \"0.15.1\"\n")
        try typst.directory.write("relctl.toml", "[project]\nname = \"typst\"\n\n[[version]]\npath = \"Cargo.toml\"\n")
        try typst.commit("chore: start")
        try typst.git("tag", "v0.11.0")
        try typst.git("checkout", "-q", "-b", "0.14")
        try typst.commit("fix: x")
        try typst.git("tag", "v0.14.0")
        try typst.git("checkout", "-q", "main")
        try typst.commit("fix: y")
        let next = try relctl(["bump"], in: typst.url)
        #expect(next.status == 0 && next.stdout == "0.15.1\n", "\(next)")
        #expect(next.stderr.contains("v0.14.0") && next.stderr.contains("Cargo.toml holds 0.15.1"), "\(next)")
    }

    @Test func helixCalendarVersions() throws {
        let repo = try GitRepository()
        try repo.directory.write("Cargo.toml", "[workspace]\nmembers = [\"helix-term\"]\nresolver = \"2\"\n")
        try repo.directory.write("helix-term/Cargo.toml", "[package]\nname = \"helix-term\"\nversion = \"25.7.1\"\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"helix\"\ntag-format = \"{version}\"\n\n[[version]]\npath = \"helix-term/Cargo.toml\"\n"
        )
        try repo.commit("chore: start", date: "2025-07-15T10:00:00Z")
        for tag in ["24.07", "25.01", "25.01.1", "25.07", "25.07.1"] { try repo.git("tag", tag) }
        // Without the scheme, the refusal says how to fix it in one line.
        let refused = try relctl(["validate-tag", "25.07.1"], in: repo.url)
        #expect(
            refused.status == 2 && refused.stderr.contains("set `version-scheme = \"calver\"` in [project]"),
            "\(refused)")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"helix\"\ntag-format = \"{version}\"\nversion-scheme = \"calver\"\n\n[[version]]\npath = \"helix-term/Cargo.toml\"\n"
        )
        let matched = try relctl(["validate-tag", "25.07.1"], in: repo.url)
        #expect(matched.status == 0, "25.07.1 equals Cargo's 25.7.1: \(matched)")
        #expect(try relctl(["validate-tag", "25.07"], in: repo.url).status == 1)
        let notes = try relctl(["notes", "--tag", "25.07.1", "--json"], in: repo.url)
        #expect(notes.stdout.contains("\"previous\" : \"25.07\""), "numeric order, leading zeros allowed: \(notes)")
        // The next release follows the commit's month, spelled like the existing tags.
        try repo.commit("fix: later", date: "2026-03-02T10:00:00Z")
        let bump = try relctl(["bump", "--json"], in: repo.url)
        // `next` is spelled as relctl tags it (issue 57); Cargo.toml still gets Cargo's 26.3.1 below.
        #expect(bump.stdout.contains("\"next\" : \"26.03\"") && bump.stdout.contains("\"tag\" : \"26.03\""), "\(bump)")
        try repo.commit("fix: same month", date: "2026-03-20T10:00:00Z")
        try repo.git("tag", "26.03")
        try repo.commit("fix: again", date: "2026-03-21T10:00:00Z")
        let patch = try relctl(["bump", "--write"], in: repo.url)
        let member = try repo.directory.read("helix-term/Cargo.toml")
        #expect(patch.stdout == "26.03.1\n" && member.contains("version = \"26.3.1\""), "\(patch)")
        #expect(try relctl(["validate-tag", "26.03.1"], in: repo.url).status == 0)
    }
}
