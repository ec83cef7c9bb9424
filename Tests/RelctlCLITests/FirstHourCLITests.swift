import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 57, "the first hour": what a newcomer meets first. `init` writes only targets its
/// build command can build, `check` raises no warning about what `init` wrote, and the first
/// `release --dry-run --host` of a fresh project succeeds where its toolchain is installed.
@Suite(.timeLimit(.minutes(30)), .removesTemporaries) struct FirstHourCLITests {
    /// The triple `init` writes for this machine.
    static let hostTriple: String = {
        #if arch(x86_64)
        let arch = "x86_64"
        #else
        let arch = "aarch64"
        #endif
        #if os(macOS)
        return "\(arch)-apple-darwin"
        #else
        return "\(arch)-unknown-linux-gnu"
        #endif
    }()

    /// init, then check: both pass and check says nothing about what init wrote.
    func initThenCleanCheck(_ repo: GitRepository) throws -> String {
        let initialised = try relctl(["init"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let written = try repo.directory.read("relctl.toml")
        let check = try relctl(["check"], in: repo.url)
        #expect(check.status == 0, "\(check)\n\(written)")
        #expect(!check.stderr.contains("warning"), "check warns about what init wrote: \(check.stderr)\n\(written)")
        return written
    }

    /// The active `[[target]]` triples of a relctl.toml (commented suggestions left out).
    static func targets(_ config: String) -> [String] {
        let lines = config.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        return lines.indices.compactMap { index in
            guard lines[index] == "[[target]]", index + 1 < lines.count,
                lines[index + 1].hasPrefix("triple = \"")
            else { return nil }
            return String(lines[index + 1].dropFirst("triple = \"".count).prefix { $0 != "\"" })
        }
    }

    /// `swift package init --type executable`: `swift build --product hello` builds for this
    /// machine only, so init lists only this machine's target and the whole dry run succeeds.
    @Test func swiftPackageListsOnlyTargetsItsBuildCanBuild() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Package.swift",
            """
            // swift-tools-version: 6.0
            import PackageDescription

            let package = Package(
                name: "hello",
                targets: [.executableTarget(name: "hello")]
            )

            """)
        try repo.directory.write("Sources/hello/main.swift", "print(\"Hello, world!\")\n")
        try repo.directory.write(".gitignore", ".build/\n")
        try repo.commit("feat: start")
        let config = try initThenCleanCheck(repo)
        #expect(Self.targets(config) == [Self.hostTriple], "\(config)")
        #expect(config.contains("# triple = \"aarch64-apple-darwin\""), "other platforms are suggested: \(config)")
        try repo.commit("chore: relctl.toml")
        let release = try relctl(["release", "v0.1.0", "--dry-run"], in: repo.url)
        #expect(release.status == 0, "\(release)")
        let host = try relctl(["release", "v0.1.0", "--dry-run", "--host"], in: repo.url)
        #expect(host.status == 0, "\(host)")
    }

    /// `cargo init`: no Cargo.lock yet, so no `--locked`; only this machine's target; the first
    /// `release --dry-run --host` builds and succeeds.
    @Test func rustCrateWithoutLockfileReleasesOnTheHost() throws {
        let repo = try GitRepository()
        try repo.directory.write(
            "Cargo.toml", "[package]\nname = \"crab\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\n")
        try repo.directory.write("src/main.rs", "fn main() {\n    println!(\"Hello, world!\");\n}\n")
        try repo.directory.write(".gitignore", "/target\n")
        try repo.commit("feat: start")
        let config = try initThenCleanCheck(repo)
        #expect(config.contains("command = \"cargo build --release --target {target}\""), "\(config)")
        #expect(Self.targets(config) == [Self.hostTriple], "\(config)")
        try repo.commit("chore: relctl.toml")
        let release = try relctl(["release", "v0.1.0", "--dry-run", "--host"], in: repo.url)
        #expect(release.status == 0, "\(release)")

        // With a lockfile, the build keeps to it.
        let locked = try GitRepository()
        try locked.directory.write("Cargo.toml", "[package]\nname = \"crab\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        try locked.directory.write("src/main.rs", "fn main() {}\n")
        try locked.directory.write(".gitignore", "/target\n")
        try locked.directory.write("Cargo.lock", "version = 4\n\n[[package]]\nname = \"crab\"\nversion = \"0.1.0\"\n")
        try locked.commit("feat: start")
        #expect(
            try initThenCleanCheck(locked).contains("command = \"cargo build --release --locked --target {target}\""))
    }

    /// The header's release command spells a tag of the tag format, and the reference is a link.
    @Test func headerShowsTheTagFormatsReleaseCommandAndALink() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"pyx\"\nversion = \"0.1.0\"\n")
        try repo.commit("feat: start")
        let config = try initThenCleanCheck(repo)
        #expect(config.contains("`relctl release v0.1.0 --dry-run`"), "\(config)")
        #expect(config.contains("Reference: https://github.com/relctl/relctl/blob/main/docs/configuration.md"), "\(config)")
        try repo.commit("chore: relctl.toml")
        #expect(try relctl(["release", "v0.1.0", "--dry-run", "--host"], in: repo.url).status == 0)

        let bare = try GitRepository()
        try bare.directory.write("pyproject.toml", "[project]\nname = \"pyx\"\nversion = \"2.1.0\"\n")
        try bare.commit("feat: start")
        try bare.git("tag", "2.0.0")
        #expect(try initThenCleanCheck(bare).contains("`relctl release 2.1.0 --dry-run`"))
    }

    /// A Go module keeps its version in its tags: init writes no [[version]] and check says nothing of it.
    @Test func goModulePassesCheckWithoutWarnings() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module example.com/gox\n\ngo 1.22\n")
        try repo.directory.write("main.go", "package main\n\nfunc main() {}\n")
        try repo.commit("feat: start")
        _ = try initThenCleanCheck(repo)
        try repo.commit("chore: relctl.toml")
        let release = try relctl(["release", "v0.1.0", "--dry-run", "--host"], in: repo.url)
        #expect(release.status == 0, "\(release)")
    }

    /// With no tags yet the manifest's version is the first release: bump takes it without a
    /// warning that it is "above" what the commits give.
    @Test func firstBumpTakesTheManifestsVersionSilently() throws {
        let repo = try GitRepository()
        try repo.directory.write("pyproject.toml", "[project]\nname = \"pyx\"\nversion = \"0.4.1\"\n")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"pyx\"\n\n[[version]]\npath = \"pyproject.toml\"\n")
        try repo.commit("feat: start")
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 0 && bump.stdout == "0.4.1\n", "\(bump)")
        #expect(!bump.stderr.contains("warning"), "\(bump)")
    }

    /// `release-pr --dry-run` with no token and no network is a preview: the request it would
    /// open (branch, title, body), one line naming what it could not read, exit 0.
    @Test func releasePRDryRunWorksOffline() throws {
        let repo = try GitRepository()
        try repo.directory.write("VERSION", "1.2.0\n")
        try repo.directory.write(
            "relctl.toml", "[project]\nname = \"demo\"\n\n[[version]]\npath = \"VERSION\"\n")
        try repo.commit("chore: start")
        try repo.git("tag", "v1.2.0")
        try repo.commit("feat: more")
        try repo.git("remote", "add", "origin", "https://127.0.0.1:9/acme/demo.git")
        let head = try repo.git("rev-parse", "HEAD")
        let result = try relctl(
            ["release-pr", "--dry-run"], in: repo.url, environment: ["GITHUB_TOKEN": "", "GH_TOKEN": ""])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("pull request from relctl/release into main"), "\(result)")
        #expect(result.stdout.contains("title  chore: release v1.3.0"), "\(result)")
        #expect(result.stdout.contains("    | "), "the body: \(result)")
        let unread = result.stderr.split(separator: "\n").filter { $0.contains("could not read") }
        #expect(unread.count == 1 && unread[0].contains("no GitHub token"), "\(result)")
        #expect(unread.first?.hasSuffix("planned from this repository alone") == true, "one line: \(result)")
        #expect(try repo.git("rev-parse", "HEAD") == head && (try repo.git("status", "--porcelain")).isEmpty)
    }

    /// A plain (non-terminal) log says every interval which stages still run, with the elapsed
    /// time: a long build no longer shows only its start. The interval is shortened for the test.
    @Test func aPlainLogHasAHeartbeatDuringALongStage() throws {
        let repo = try GitRepository()
        try repo.directory.write("VERSION", "1.2.3\n")
        try repo.directory.write(".gitignore", "out/\n")
        try repo.directory.write(
            "relctl.toml",
            """
            [project]
            name = "demo"

            [[version]]
            path = "VERSION"

            [build]
            command = "sleep 3 && mkdir -p out && printf '#!/bin/sh\\n' > out/demo && chmod +x out/demo"
            binaries = ["demo"]
            binary-dir = "out"

            [[target]]
            triple = \(Self.hostTriple.debugDescription)

            """)
        try repo.commit("feat: start")
        let release = try relctl(
            ["release", "v1.2.3", "--dry-run"], in: repo.url, environment: ["RELCTL_HEARTBEAT_SECONDS": "0.5"])
        #expect(release.status == 0, "\(release)")
        #expect(release.stderr.contains("    … build: still running ("), "\(release)")
    }

    /// A dry run's log shows the notes and the tag message once (with `-v` too), and its step
    /// counter has no gaps: skipped stages carry their numbers.
    @Test func aDryRunLogShowsTheNotesOnceAndCountsEveryStage() throws {
        let repo = try GitRepository()
        try repo.commit(
            "feat: the first feature",
            files: ["relctl.toml": "[project]\nname = \"x\"\n[release]\n", "VERSION": "1.0.0\n"])
        for extra in [[], ["-v"]] {
            let release = try relctl(["release", "v1.0.0", "--dry-run"] + extra, in: repo.url)
            #expect(release.status == 0, "\(release)")
            let log = release.stderr
            #expect(log.components(separatedBy: "- the first feature (").count == 2, "notes once: \(log)")
            #expect(log.components(separatedBy: "Release 1.0.0 of x, commit").count == 2, "tag message once: \(log)")
            let numbers = log.split(separator: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("==> [") || line.hasPrefix("--  [") else { return nil }
                return Int(line.dropFirst(5).prefix { $0 != "/" })
            }
            #expect(numbers == Array(1...27), "\(log)")
        }
    }

    /// Item 6: `check` at a workspace root names each member and what it read of it, instead of
    /// "0 manifests, 0 targets: a tag-only release"; a member's bad manifest is named by its file.
    @Test func checkAtAWorkspaceRootNamesTheMembers() throws {
        let repository = try GitRepository()
        var files = InitWorkspaceCLITests.cargoWorkspace
        files["relctl.toml"] = """
            [project]
            name = "mono"

            [workspace]
            members = ["crates/*"]
            tag-format = "{member}-v{version}"

            """
        files["crates/cli/relctl.toml"] = """
            [project]
            name = "cli"

            [[version]]
            path = "Cargo.toml"

            [build]
            command = "cargo build --release"
            binaries = ["cli"]

            [[target]]
            triple = "x86_64-unknown-linux-gnu"

            """
        try repository.commit("chore: start", files: files)
        let check = try relctl(["check"], in: repository.url)
        #expect(check.status == 0, "\(check)")
        #expect(!check.stderr.contains("tag-only release"), "\(check)")
        #expect(check.stderr.contains("member cli (crates/cli/): 1 manifest, 1 target, tags cli-v{version}, its own relctl.toml"), "\(check)")
        #expect(check.stderr.contains("member core (crates/core/): 1 manifest, no target (tag only), tags core-v{version}"), "\(check)")
        #expect(check.stderr.contains("relctl.toml: ok (a workspace of 2 members"), "\(check)")
        let json = try relctl(["check", "--json"], in: repository.url)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json)")
        let members = try #require(document["members"] as? [[String: Any]], "\(json)")
        #expect(members.map { $0["name"] as? String } == ["cli", "core"], "\(json)")
        #expect(members.map { $0["targets"] as? Int } == [1, 0], "\(json)")
        // A member's manifest that cannot be read is a problem of check at the root, named by its file.
        try repository.directory.write("crates/core/Cargo.toml", "[package]\nname = \"core\"\nversion = \"one\"\n")
        let broken = try relctl(["check"], in: repository.url)
        #expect(broken.status == 2, "\(broken)")
        #expect(broken.stderr.contains("crates/core/Cargo.toml"), "\(broken)")
        #expect(broken.stderr.contains("`one`"), "\(broken)")
    }

    /// Item 9: a value outside an option's list reads the same whichever kind of list the option
    /// has (ArgumentParser's enum or relctl's registry check); `validate-tag --json` carries `ok` on
    /// a mismatch; `linux-package --help` shows `--tag` as required (beside `--export-key`).
    @Test func optionTextsAreOneForScripts() throws {
        let repo = try GitRepository()
        try repo.commit("chore: start", files: ["relctl.toml": "[project]\nname = \"demo\"\n\n[[version]]\npath = \"VERSION\"\n", "VERSION": "1.0.0\n"])
        let cases: [([String], String)] = [
            (["checksum", "--algorithm", "md5"], "'--algorithm <name>'. Please provide one of 'sha256' and 'sha512'."),
            (["matrix", "--format", "yaml"], "'--format <format>'. Please provide one of 'table', 'json' or 'github'."),
            (["linux-package", "--tag", "v1.0.0", "--format", "snap"], "'--format <id>'. Please provide one of 'deb' and 'rpm'."),
            (["publish", "v1.0.0", "--forge", "svn"], "'--forge <name>'. Please provide one of 'gitea', 'github' or 'gitlab'."),
            (["release", "v1.0.0", "--color", "pink"], "'--color <color>'. Please provide one of 'auto', 'always' or 'never'."),
        ]
        for (arguments, text) in cases {
            let result = try relctl(arguments, in: repo.url)
            #expect(result.status == 64, "\(arguments): \(result)")
            let value = arguments[arguments.count - 1]
            #expect(result.stderr.contains("relctl: error: The value '\(value)' is invalid for \(text)"), "\(arguments): \(result)")
        }
        let mismatch = try relctl(["validate-tag", "v2.0.0", "--json"], in: repo.url)
        #expect(mismatch.status == 1, "\(mismatch)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(mismatch.stdout.utf8)) as? [String: Any])
        #expect(document["ok"] as? Bool == false, "\(mismatch)")
        let matching = try relctl(["validate-tag", "v1.0.0", "--json"], in: repo.url)
        #expect(matching.stdout.contains("\"ok\" : true"), "\(matching)")
        let help = try relctl(["linux-package", "--help"], in: repo.url)
        #expect(help.stdout.contains("USAGE: relctl linux-package --tag <tag> "), "\(help)")
        #expect(help.stdout.contains("relctl linux-package --export-key <file>"), "\(help)")
        let noTag = try relctl(["linux-package"], in: repo.url)
        #expect(noTag.status == 64 && noTag.stderr.contains("Missing expected argument '--tag <tag>'"), "\(noTag)")
    }
}
