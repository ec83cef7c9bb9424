import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// The read rule (issue 55): a file relctl reads from the project (a changelog, a member's
/// relctl.toml, a manifest) that is committed as a link leading outside the repository is
/// refused (exit 2, naming it) before a byte of it is read; nothing it holds reaches a commit, a
/// push or the working tree.
@Suite("safe reads", .serialized, .timeLimit(.minutes(45)), .removesTemporaries)
struct SafeReadsCLITests {
    /// A file outside every repository the tests make, standing in for `~/.ssh/id_ed25519`.
    static func secret() throws -> (TemporaryDirectory, String) {
        let outside = try TemporaryDirectory(prefix: "relctl-outside")
        let file = try outside.write("secret.txt", "the-secret-outside-the-repository\n")
        return (outside, file.path)
    }

    static func link(_ path: String, in repository: GitRepository, to target: String) throws {
        let url = repository.url.appendingPathComponent(path)
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
    }

    /// Finding 1: `release-pr` read CHANGELOG.md through its link, committed the outside file's
    /// content on relctl/release and pushed it to the forge.
    @Test func releasePRRefusesAChangelogThatLinksOutside() async throws {
        let (outside, secret) = try Self.secret()
        defer { outside.remove() }
        let project = try ReleasePRCLITests.Project(forge: "github")
        defer { project.forge.stop() }
        try Self.link("CHANGELOG.md", in: project.repo, to: secret)
        try project.repo.commit("docs: changelog lives elsewhere")
        try project.repo.git("push", "-q", "origin", "main")

        let result = try await project.relctl([])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("CHANGELOG.md") && result.stderr.contains(secret), "\(result)")
        #expect(try project.remote("branch", "--list", "relctl/*").isEmpty, "nothing pushed")
        #expect(project.ours(try await project.forge.pulls()).isEmpty, "no request opened")
        let everything = try run("git", ["--git-dir", project.remote.path, "log", "--all", "-p"])
        #expect(everything.status == 0 && !everything.stdout.contains("the-secret"), "\(everything)")
    }

    /// A workspace whose member `core` holds `extra` files.
    static func workspace(_ extra: [String: String] = [:]) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.commit(
            "chore: start",
            files: [
                "relctl.toml": "[workspace]\nmembers = [\"crates/*\"]\n",
                "crates/core/Cargo.toml": "[package]\nname = \"core\"\nversion = \"1.0.0\"\n",
                "crates/core/CHANGELOG.md": "# Changelog\n",
                "crates/tool/Cargo.toml": "[package]\nname = \"tool\"\nversion = \"2.0.0\"\n",
            ].merging(extra) { $1 })
        try repo.git("tag", "core-v1.0.0")
        try repo.git("tag", "tool-v2.0.0")
        return repo
    }

    /// Finding 1, second half: `bump --write` in a workspace copied a member's linked changelog
    /// into the repository (the link replaced by a file holding the outside content).
    @Test func bumpWriteRefusesAMemberChangelogThatLinksOutside() throws {
        let (outside, secret) = try Self.secret()
        defer { outside.remove() }
        let repo = try Self.workspace()
        try Self.link("crates/core/CHANGELOG.md", in: repo, to: secret)
        try repo.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])

        let result = try relctl(["bump", "--write"], in: repo.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("crates/core/CHANGELOG.md") && result.stderr.contains(secret), "\(result)")
        let kind =
            try FileManager.default.attributesOfItem(
                atPath: repo.url.appendingPathComponent("crates/core/CHANGELOG.md").path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink, "the link is left as it was")
        let grep = try run("grep", ["-rl", "the-secret", repo.url.path, "--exclude-dir=.git"])
        #expect(grep.stdout.isEmpty, "the outside file's content is nowhere in the tree: \(grep.stdout)")
    }

    /// The same rule for `notes --changelog`: the project's changelog is a project file.
    @Test func notesRefusesAChangelogThatLinksOutside() throws {
        let (outside, secret) = try Self.secret()
        defer { outside.remove() }
        let repo = try GitRepository()
        try repo.commit("feat: first", files: ["relctl.toml": "[project]\nname = \"hello\"\n"])
        try Self.link("CHANGELOG.md", in: repo, to: secret)
        let result = try relctl(["notes", "--tag", "v1.0.0", "--changelog", "CHANGELOG.md"], in: repo.url)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("CHANGELOG.md") && result.stderr.contains(secret), "\(result)")
        #expect(try String(contentsOfFile: secret, encoding: .utf8) == "the-secret-outside-the-repository\n")
    }

    /// Finding 5: a member's relctl.toml committed as a link outside was read as that member's
    /// configuration (its name, its tags, its `[build] command`).
    @Test func aMemberConfigThatLinksOutsideIsRefused() throws {
        let outside = try TemporaryDirectory(prefix: "relctl-outside")
        defer { outside.remove() }
        let foreign = try outside.write(
            "relctl.toml", "[project]\nname = \"intruder\"\n[build]\ncommand = \"touch /tmp/relctl-pwned\"\n")
        let repo = try Self.workspace()
        try Self.link("crates/core/relctl.toml", in: repo, to: foreign.path)
        try repo.commit("chore: core config elsewhere")
        // Every command that reads the members (`check` at the root reads only the root's file).
        for arguments in [["plan"], ["bump"], ["bump", "--write"]] {
            let result = try relctl(arguments, in: repo.url)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(
                result.stderr.contains("crates/core/relctl.toml") && result.stderr.contains(foreign.path),
                "\(arguments): \(result)")
            #expect(!result.stdout.contains("intruder"), "\(result)")
        }
    }

    /// A link that stays inside the repository is still read: a member's changelog linked to a
    /// shared one, a member config linked to a file in the repository.
    @Test func linksThatStayInsideAreStillRead() throws {
        let repo = try Self.workspace(["docs/core-changes.md": "# Changelog\n"])
        try Self.link("crates/core/CHANGELOG.md", in: repo, to: "../../docs/core-changes.md")
        try repo.commit("feat: core learns a trick", files: ["crates/core/src/lib.rs": "pub fn trick() {}\n"])
        let result = try relctl(["bump", "--write"], in: repo.url)
        #expect(result.status == 0, "\(result)")
        #expect(try repo.directory.read("docs/core-changes.md").contains("core learns a trick") == false)
        #expect(try repo.directory.read("crates/core/CHANGELOG.md").contains("core learns a trick"), "\(result)")
    }
}
