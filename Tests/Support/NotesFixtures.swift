import Foundation
import RelctlArtifacts
import RelctlBasics
import RelctlChanges
import RelctlDistribution
import RelctlModel
import RelctlProject
import RelctlRelease

/// A synthetic history exercising every notes rule; hashes of interest are kept by name.
public struct NotesFixture: Sendable {
    public let repository: GitRepository
    public var url: URL { repository.url }
    public var hashes: [String: String]

    /// Builds: v0.1.0, then feat/fix/perf/docs with scopes, Markdown metacharacters, `!` and footer
    /// breaking changes, a git revert pair, a `revert:` pair, a `revert:` naming an older commit,
    /// a merged branch, non-conventional and chore commits, v0.2.0-rc.1 midway and v0.2.0 at the end.
    public static func make() throws -> NotesFixture {
        let repo = try GitRepository()
        var hashes: [String: String] = [:]
        hashes["initial"] = try repo.commit("chore: initial import", files: ["README.md": "demo\n"])
        try repo.git("tag", "v0.1.0")
        hashes["api"] = try repo.commit("feat(api): add the /health endpoint", files: ["api.txt": "1\n"])
        hashes["parser"] = try repo.commit(
            "fix(parser): handle *stars*, _underscores_ and <b>tags</b> in `code_span` [x]", files: ["p.txt": "1\n"])
        hashes["perf"] = try repo.commit("perf: cache the token table", files: ["perf.txt": "1\n"])
        hashes["docs"] = try repo.commit("docs: explain the config file", files: ["docs.txt": "1\n"])
        try repo.git("tag", "v0.2.0-rc.1")
        hashes["bang"] = try repo.commit(
            "feat(config)!: drop the legacy `relctl.ini` format", files: ["config.txt": "1\n"])
        hashes["footer"] = try repo.commit(
            """
            refactor(core): rename Engine to Runtime

            The old name confused everyone.

            BREAKING CHANGE: `Engine` is now `Runtime`; rename your imports.
            Reviewed-by: Z
            """, files: ["core.txt": "1\n"])
        hashes["temporary"] = try repo.commit("feat: temporary experiment", files: ["tmp.txt": "1\n"])
        try repo.git("revert", "--no-edit", "HEAD")
        hashes["gitRevert"] = try repo.git("rev-parse", "HEAD")
        hashes["oops"] = try repo.commit("fix: oops that broke logging", files: ["oops.txt": "1\n"])
        let oopsShort = String(hashes["oops"]!.prefix(8))
        hashes["conventionalRevert"] = try repo.commit(
            "revert: undo the logging fix\n\nRefs: \(oopsShort)", files: ["oops.txt": "2\n"])
        hashes["outsideRevert"] = try repo.commit(
            "revert: bring back the old banner\n\nRefs: \(hashes["initial"]!.prefix(10))", files: ["banner.txt": "1\n"])
        try repo.git("checkout", "-q", "-b", "feature")
        hashes["dark"] = try repo.commit("feat(ui): dark mode", files: ["ui.txt": "1\n"])
        try repo.git("checkout", "-q", "main")
        hashes["readme"] = try repo.commit("Update the README", files: ["README.md": "demo 2\n"])
        try repo.git("merge", "--no-ff", "-q", "-m", "Merge branch 'feature'", "feature")
        hashes["merge"] = try repo.git("rev-parse", "HEAD")
        try repo.directory.write(".mailmap", "Alice Liddell <alice@example.com> <alice@old.example>\n")
        try repo.git("add", ".mailmap")
        try repo.git(
            ["commit", "-q", "-m", "fix(cli): exit 2 on a bad flag"],
            environment: ["GIT_AUTHOR_NAME": "alice", "GIT_AUTHOR_EMAIL": "alice@old.example"])
        hashes["alice"] = try repo.git("rev-parse", "HEAD")
        hashes["chore"] = try repo.commit("chore: bump dependencies", files: ["deps.txt": "1\n"])
        try repo.git("tag", "v0.2.0")
        return NotesFixture(repository: repo, hashes: hashes)
    }
}
