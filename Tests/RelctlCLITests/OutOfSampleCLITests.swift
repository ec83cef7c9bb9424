import Foundation
import RelctlTestSupport
import RelctlTestTraits
import Testing

/// Issue 63, the second round of repositories nobody here had read before (fastify, requests,
/// jinja, marshmallow, trpc, apollo-client, serde, hyper, zap, viper, swift-collections,
/// swift-crypto): each relctl bug they showed, rebuilt as a generated repository of the same
/// shape and driven through the built binary as a new user would.
@Suite(.removesTemporaries, .timeLimit(.minutes(30))) struct OutOfSampleCLITests {
    @discardableResult
    static func commit(
        _ repo: GitRepository, _ message: String, day: Int, files: [String: String] = [:]
    ) throws -> String {
        try repo.commit(message, files: files, date: String(format: "2026-01-%02dT10:00:00Z", day))
    }

    static func field(_ json: String, _ key: String) throws -> Any? {
        (try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?[key]
    }

    /// marshmallow releases from `dev` (its default branch), jinja from `stable`: `init` there
    /// lists that branch in `[release] branches`, so the first `release --dry-run` is not refused
    /// for the branch it was written on. A feature branch is never listed.
    @Test func initListsTheMainLineItRunsOnUnderAnotherName() throws {
        let repo = try GitRepository()
        func manifest(_ version: String) -> [String: String] {
            ["pyproject.toml": "[project]\nname = \"marshmallow\"\nversion = \"\(version)\"\n"]
        }
        try repo.git("checkout", "-q", "-b", "dev")
        try Self.commit(repo, "chore: release 3.23.0", day: 1, files: manifest("3.23.0"))
        try repo.git("tag", "3.23.0")
        try Self.commit(repo, "fix: a field", day: 2, files: manifest("3.23.1").merging(["src/f.py": "f\n"]) { $1 })
        let initialised = try relctl(["init", "--quiet"], in: repo.url)
        #expect(initialised.status == 0, "\(initialised)")
        let config = try repo.directory.read("relctl.toml")
        #expect(config.contains("branches = [\"main\", \"master\", \"dev\"]"), "\(config)")
        try repo.git("add", "-A")
        try repo.git("commit", "-q", "-m", "chore: relctl")
        let dry = try relctl(["release", "3.23.1", "--dry-run"], in: repo.url)
        #expect(dry.status == 0, "\(dry)")
        #expect(!dry.stderr.contains("releases are made from"), "\(dry)")

        try repo.git("checkout", "-q", "-b", "stable")
        try repo.git("rm", "-q", "relctl.toml")
        try repo.git("commit", "-q", "-m", "chore: no config")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        #expect(try repo.directory.read("relctl.toml").contains("branches = [\"main\", \"master\", \"stable\"]"))

        try FileManager.default.removeItem(at: repo.url.appendingPathComponent("relctl.toml"))
        try repo.git("checkout", "-q", "-b", "feature/fields")
        #expect(try relctl(["init", "--quiet"], in: repo.url).status == 0)
        let feature = try repo.directory.read("relctl.toml")
        #expect(feature.contains("branches = [\"main\", \"master\"]\n"), "\(feature)")
    }

    /// viper's `v1.18.x`: a Go module whose path cannot take 2.0.0 gets a minor for a breaking
    /// change, which leaves the branch's `1.18.x`; the refusal names that commit, not "a manifest
    /// holds a version above it" in a repository with no manifest.
    @Test func aGoModulesBreakingChangeOnAMaintenanceLineNamesTheCommit() throws {
        let repo = try GitRepository()
        try repo.directory.write("go.mod", "module example.com/tool\n\ngo 1.22\n")
        try repo.directory.write(
            "relctl.toml",
            "[project]\nname = \"tool\"\n\n[[branch]]\nname = \"v1.4.x\"\nrange = \"1.4.x\"\n")
        try Self.commit(repo, "feat: start", day: 1)
        try repo.git("tag", "v1.4.0")
        try repo.git("checkout", "-q", "-b", "v1.4.x")
        try Self.commit(repo, "fix!: breaks 1.4.x", day: 2, files: ["tool.go": "package tool\n"])
        let bump = try relctl(["bump"], in: repo.url)
        #expect(bump.status == 1, "\(bump)")
        #expect(bump.stderr.contains("(fix!: breaks 1.4.x) calls for 1.5.0"), "\(bump)")
        #expect(!bump.stderr.contains("a manifest holds"), "\(bump)")
    }
}
